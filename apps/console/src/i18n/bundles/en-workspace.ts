import { type MessageTree, mergeMessages } from '../message-tree.ts';

/** The en messages of the signed-in pages: every feature's but the public holder pages' (loaded with the app shell). */
export const messages: MessageTree = mergeMessages(
  {},
  import.meta.glob<MessageTree>(['../../features/*/locales/en.json', '!../../features/connect/locales/en.json'], {
    eager: true,
    import: 'default',
  }),
);
