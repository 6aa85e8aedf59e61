import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import '../i18n/index.ts';

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API; this only expires test cookies.
    if (name) document.cookie = `${name}=; Path=/; Max-Age=0`;
  }
});
