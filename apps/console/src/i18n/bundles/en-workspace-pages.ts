import { type MessageTree, mergeMessages } from '../message-tree.ts';

/**
 * The en messages of the signed-in pages beyond what the credential list shows at first paint (every feature's
 * `locales/en.json` but the public holder pages'): every route but the list awaits them, and so do the dialogs the list
 * opens (a credential's detail, the KYB application); the shell fetches them once idle.
 */
export const messages: MessageTree = mergeMessages(
  {},
  import.meta.glob<MessageTree>(['../../features/*/locales/en.json', '!../../features/connect/locales/en.json'], {
    eager: true,
    import: 'default',
  }),
);
