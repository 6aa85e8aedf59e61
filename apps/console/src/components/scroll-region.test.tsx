import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ScrollRegion } from './scroll-region.tsx';

/** jsdom lays nothing out: the widths a browser would measure are given here. */
function layout(scrollWidth: number, clientWidth: number) {
  Object.defineProperty(HTMLElement.prototype, 'scrollWidth', { configurable: true, get: () => scrollWidth });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => clientWidth });
}

afterEach(() => {
  Reflect.deleteProperty(HTMLElement.prototype, 'scrollWidth');
  Reflect.deleteProperty(HTMLElement.prototype, 'clientWidth');
});

describe('ScrollRegion', () => {
  it('is a named, focusable region while its content overflows, so the keyboard can scroll it', () => {
    layout(960, 600);
    render(
      <ScrollRegion label="Credentials" testId="scroller">
        <table />
      </ScrollRegion>,
    );
    const region = screen.getByRole('region', { name: 'Credentials' });
    expect(region).toBe(screen.getByTestId('scroller'));
    expect(region.getAttribute('tabindex')).toBe('0');
  });

  it('adds no tab stop and no landmark when everything fits', () => {
    layout(600, 600);
    render(
      <ScrollRegion label="Credentials" testId="scroller">
        <table />
      </ScrollRegion>,
    );
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.getByTestId('scroller').hasAttribute('tabindex')).toBe(false);
  });
});
