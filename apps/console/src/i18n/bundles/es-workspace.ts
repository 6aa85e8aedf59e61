import { type MessageTree, mergeMessages } from '../message-tree.ts';

/** The es messages of the signed-in pages: every feature's but the public holder pages' (loaded with the app shell). */
export const messages: MessageTree = mergeMessages(
  {},
  import.meta.glob<MessageTree>(['../../features/*/locales/es.json', '!../../features/connect/locales/es.json'], {
    eager: true,
    import: 'default',
  }),
);
