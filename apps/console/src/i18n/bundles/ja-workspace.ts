import { type MessageTree, mergeMessages } from '../message-tree.ts';

/** The ja messages of the signed-in pages: every feature's but the public holder pages' (loaded with the app shell). */
export const messages: MessageTree = mergeMessages(
  {},
  import.meta.glob<MessageTree>(['../../features/*/locales/ja.json', '!../../features/connect/locales/ja.json'], {
    eager: true,
    import: 'default',
  }),
);
