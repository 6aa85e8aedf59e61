import { type MessageTree, mergeMessages } from '../message-tree.ts';

/** The ko messages of the signed-in pages: every feature's but the public holder pages' (loaded with the app shell). */
export const messages: MessageTree = mergeMessages(
  {},
  import.meta.glob<MessageTree>(['../../features/*/locales/ko.json', '!../../features/connect/locales/ko.json'], {
    eager: true,
    import: 'default',
  }),
);
