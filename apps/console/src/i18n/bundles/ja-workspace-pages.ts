import { type MessageTree, mergeMessages } from '../message-tree.ts';

/**
 * The ja messages of the signed-in pages beyond what the credential list shows at first paint (every feature's
 * `locales/ja.json` but the public holder pages'): every route but the list awaits them, and so do the dialogs the list
 * opens (a credential's detail, the KYB application); the shell fetches them once idle.
 */
export const messages: MessageTree = mergeMessages(
  {},
  import.meta.glob<MessageTree>(['../../features/*/locales/ja.json', '!../../features/connect/locales/ja.json'], {
    eager: true,
    import: 'default',
  }),
);
