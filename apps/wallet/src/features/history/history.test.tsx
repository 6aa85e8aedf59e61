import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildCredential, FakeVault } from '../../test/fake-vault.ts';
import { renderApp } from '../../test/render-app.tsx';

vi.mock('../../app/core-api.ts', () => import('../../test/core-api-mock.ts'));

describe('history', () => {
  it('lists presentations newest first: who, which credential, which claims by label, outcome', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [buildCredential()] });
    const base = { credentialId: 'cred-1', credentialName: { en: 'Employee badge' } };
    vault.presentations.push(
      {
        ...base,
        id: 'h1',
        at: '2026-03-01T10:00:00Z',
        verifier: { name: 'Old Shop', clientId: 'a' },
        sharedClaims: [],
        outcome: 'DECLINED',
      },
      {
        ...base,
        id: 'h2',
        at: '2026-03-02T10:00:00Z',
        verifier: { name: 'Bank of Examples', clientId: 'b' },
        sharedClaims: ['given_name', 'birthdate'],
        outcome: 'SENT',
      },
    );
    renderApp('/history', vault);

    const items = await screen.findAllByTestId('history-item');
    expect(items.map((item) => item.dataset.outcome)).toEqual(['SENT', 'DECLINED']);
    expect(within(items[0]!).getByText('Bank of Examples')).toBeTruthy();
    expect(within(items[0]!).getByText('Shared')).toBeTruthy();
    expect(within(items[0]!).getByText('Credential: Employee badge')).toBeTruthy();
    expect(within(items[0]!).getByText('Given name')).toBeTruthy();
    expect(within(items[0]!).getByText('Date of birth')).toBeTruthy();
    expect(within(items[1]!).getByText('Declined')).toBeTruthy();
  });

  it('records a refused answer with the verifier’s words', async () => {
    const vault = new FakeVault({ passcode: 'p', unlocked: true, credentials: [buildCredential()] });
    vault.presentations.push({
      id: 'h3',
      at: '2026-03-03T10:00:00Z',
      verifier: { name: 'Bank of Examples', clientId: 'b' },
      credentialId: 'cred-1',
      credentialName: { en: 'Employee badge' },
      sharedClaims: ['given_name'],
      outcome: 'ERROR',
      detail: 'The verifier answered 400 (invalid_request: The state is unknown)',
      refusal: { error: 'invalid_request', description: 'The state is unknown' },
    });
    renderApp('/history', vault);

    const item = await screen.findByTestId('history-item');
    expect(within(item).getByText('Refused')).toBeTruthy();
    expect(within(item).getByTestId('history-refusal').textContent).toBe(
      'The verifier refused the answer: The state is unknown',
    );
  });
});
