import { type MessageTree, mergeMessages } from '../message-tree.ts';

/** The en messages of the public holder pages (/connect/…), loaded with their code. */
export const messages: MessageTree = mergeMessages(
  {},
  import.meta.glob<MessageTree>('../../features/connect/locales/en.json', { eager: true, import: 'default' }),
);
