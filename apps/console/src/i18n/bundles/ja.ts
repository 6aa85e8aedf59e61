import base from '../locales/ja.json';
import { type MessageTree, mergeMessages } from '../messages.ts';

/** Every ja message (its own chunk: loaded only when ja is shown). */
export const messages: MessageTree = mergeMessages(
  base as MessageTree,
  import.meta.glob<MessageTree>('../../features/*/locales/ja.json', { eager: true, import: 'default' }),
);
