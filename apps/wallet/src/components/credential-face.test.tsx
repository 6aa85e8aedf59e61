import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as core from '../app/core-api.ts';
import { buildCredential, FakeVault } from '../test/fake-vault.ts';
import { renderApp } from '../test/render-app.tsx';
import { cardColors } from './credential-face.tsx';

vi.mock('../app/core-api.ts', () => import('../test/core-api-mock.ts'));

beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(core.refreshStatuses).mockResolvedValue(undefined);
});

describe('card colours', () => {
  it("keeps the issuer's colours while its text reads on its background", () => {
    expect(cardColors({ backgroundColor: '#003366', textColor: '#ffffff' })).toEqual({
      background: '#003366',
      text: '#ffffff',
    });
    expect(cardColors({ backgroundColor: '#ffcc00', textColor: '#111111' })).toEqual({
      background: '#ffcc00',
      text: '#111111',
    });
  });

  it('picks white or near-black text when the issuer gives none, or one that cannot be read', () => {
    expect(cardColors({ backgroundColor: '#ffcc00' }).text).toBe('#111111');
    expect(cardColors({ backgroundColor: '#003366' }).text).toBe('#ffffff');
    // White on yellow is 1.5:1: not what a holder should have to read.
    expect(cardColors({ backgroundColor: '#ffcc00', textColor: '#ffffff' }).text).toBe('#111111');
    // No colours at all: the wallet's own card.
    expect(cardColors({})).toEqual({ background: '#004a46', text: '#ffffff' });
    // Never arbitrary CSS from metadata.
    expect(cardColors({ backgroundColor: 'url(https://evil.test/x)', textColor: 'red' })).toEqual({
      background: '#004a46',
      text: '#ffffff',
    });
    // A colour it cannot measure keeps the issuer's text colour.
    expect(cardColors({ backgroundColor: 'rgb(10, 20, 30)', textColor: '#eeeeee' }).text).toBe('#eeeeee');
  });

  it("draws the card in the organization's brand colour, text colour and logo from its issuer metadata", async () => {
    const vault = new FakeVault({
      passcode: 'secret-1',
      unlocked: true,
      credentials: [
        buildCredential({
          // As the platform's issuer metadata publishes a yellow brand (credential_metadata.display).
          display: {
            name: { en: 'Security clearance' },
            backgroundColor: '#ffcc00',
            textColor: '#111111',
            logoUri: 'https://issuer.example/api/media/logo-1',
          },
        }),
      ],
    });
    renderApp('/', vault);
    const card = await screen.findByTestId('credential-card');
    const face = within(card).getByTestId('credential-face');
    expect(getComputedStyle(face).backgroundColor).toBe('rgb(255, 204, 0)');
    expect(getComputedStyle(face).color).toBe('rgb(17, 17, 17)');
    expect(face.querySelector('img')?.getAttribute('src')).toBe('https://issuer.example/api/media/logo-1');
    expect(within(face).getByText('Security clearance')).toBeTruthy();
  });
});
