import { ThemeProvider } from '@mui/material/styles';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountDisplay } from './account-display.tsx';
import { createAppTheme } from './theme.ts';

const theme = createAppTheme();
const renderWithTheme = (ui: React.ReactElement) => render(<ThemeProvider theme={theme}>{ui}</ThemeProvider>);

afterEach(cleanup);

describe('AccountDisplay', () => {
  it('shows the name, the username and the default organization icon without a picture', () => {
    renderWithTheme(<AccountDisplay type="organizations" name="Acme" username="acme" />);
    expect(screen.getByText('Acme')).toBeTruthy();
    expect(screen.getByText('acme')).toBeTruthy();
    expect(screen.getByTestId('default-organization-icon')).toBeTruthy();
  });

  it('uses the default person icon for users', () => {
    renderWithTheme(<AccountDisplay type="users" name="Jane" />);
    expect(screen.getByTestId('default-user-icon')).toBeTruthy();
  });

  it('shows the picture when there is one', () => {
    renderWithTheme(<AccountDisplay type="users" name="Jane" img="https://example.com/a.png" />);
    expect(screen.getByRole('img', { name: 'Jane' }).getAttribute('src')).toBe('https://example.com/a.png');
  });

  it('carries the verified badge only when verified', () => {
    const { rerender } = renderWithTheme(<AccountDisplay type="organizations" name="Acme" verifiedLabel="Verified" />);
    expect(screen.queryByTitle('Verified')).toBeNull();
    rerender(
      <ThemeProvider theme={theme}>
        <AccountDisplay type="organizations" name="Acme" isVerified verifiedLabel="Verified" />
      </ThemeProvider>,
    );
    expect(screen.getByTitle('Verified')).toBeTruthy();
  });

  it('shows the small badge image', async () => {
    const { container } = renderWithTheme(
      <AccountDisplay type="users" name="Jane" badge={{ image: 'https://example.com/b.png', width: 12, height: 12 }} />,
    );
    // The Badge's code comes with the first badge.
    await waitFor(() => expect(container.querySelector('img[src="https://example.com/b.png"]')).not.toBeNull());
  });
});

describe('theme (spec §9)', () => {
  it('uses the teal primary, dark grey secondary and the type scale', () => {
    expect(theme.palette.primary.main).toBe('#004a46');
    expect(theme.palette.primary.dark).toBe('#003b38');
    expect(theme.palette.primary.contrastText).toBe('#ffffff');
    expect(theme.palette.secondary.main).toBe('#344054');
    expect(theme.palette.error.main).toBe('#d92d20');
    expect(theme.palette.burgundy.main).toBe('#b03046');
    expect(theme.typography.h3).toMatchObject({ fontSize: '30px', lineHeight: '38px', fontWeight: 600 });
    expect(theme.typography.subtitle2).toMatchObject({ fontSize: '14px', fontWeight: 600 });
    expect(String(theme.typography.fontFamily)).toMatch(/^Inter/);
  });
});
