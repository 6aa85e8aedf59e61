import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { claimErrorReload, ERROR_RELOAD_FLAG, ServerErrorPage } from './server-error-page.tsx';

const memoryStorage = () => {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
};

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('claimErrorReload', () => {
  it('is true once per session, then false', () => {
    const storage = memoryStorage();
    expect(claimErrorReload(storage)).toBe(true);
    expect(storage.getItem(ERROR_RELOAD_FLAG)).toBe('1');
    expect(claimErrorReload(storage)).toBe(false);
  });
});

describe('ServerErrorPage', () => {
  it('reloads on the first crash of the session without showing the page', () => {
    const reload = vi.fn();
    render(<ServerErrorPage error={new Error('boom')} reload={reload} storage={memoryStorage()} />);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Internal Server Error (500)')).toBeNull();
  });

  it('shows the 500 page with the message and a home button after the reload', async () => {
    const storage = memoryStorage();
    storage.setItem(ERROR_RELOAD_FLAG, '1');
    const reload = vi.fn();
    render(<ServerErrorPage error={new Error('boom')} reload={reload} storage={storage} />);
    expect(await screen.findByText('Internal Server Error (500)')).toBeTruthy();
    expect(screen.getByTestId('error-message').textContent).toBe('boom');
    expect(screen.getByTestId('go-home').getAttribute('href')).toBe('/');
    expect(reload).not.toHaveBeenCalled();
  });

  it('reports the crash to POST /api/errors', () => {
    render(<ServerErrorPage error={new Error('boom')} reload={() => {}} storage={memoryStorage()} />);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/errors');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toMatchObject({ message: 'boom', url: window.location.href });
  });
});
