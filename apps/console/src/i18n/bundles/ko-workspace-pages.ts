import { type MessageTree, mergeMessages } from '../message-tree.ts';

/**
 * The ko messages of the signed-in pages beyond what the credential list shows at first paint (every feature's
 * `locales/ko.json` but the public holder pages'): every route but the list awaits them, and so do the dialogs the list
 * opens (a credential's detail, the KYB application); the shell fetches them once idle.
 */
export const messages: MessageTree = mergeMessages(
  {},
  import.meta.glob<MessageTree>(['../../features/*/locales/ko.json', '!../../features/connect/locales/ko.json'], {
    eager: true,
    import: 'default',
  }),
);
