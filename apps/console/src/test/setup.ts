import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import {
  i18nReady,
  loadConnectMessages,
  loadLanguage,
  loadWorkspaceMessages,
  loadWorkspacePagesMessages,
  SUPPORTED_LANGUAGES,
} from '../i18n/index.ts';

// Pages render lazily and the machine is shared: findBy/waitFor get 5 s instead of 1 s.
configure({ asyncUtilTimeout: 5000 });

// The app downloads one language at a time (the signed-in pages' messages with the shell); tests render any page and
// switch languages freely, so every message of every language is loaded up front.
await i18nReady;
await loadWorkspaceMessages();
await loadWorkspacePagesMessages();
await loadConnectMessages();
await Promise.all(SUPPORTED_LANGUAGES.map(loadLanguage));

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
