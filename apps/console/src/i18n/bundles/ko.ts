import base from '../locales/ko.json';
import { type MessageTree, mergeMessages } from '../messages.ts';

/** Every ko message (its own chunk: loaded only when ko is shown). */
export const messages: MessageTree = mergeMessages(
  base as MessageTree,
  import.meta.glob<MessageTree>('../../features/*/locales/ko.json', { eager: true, import: 'default' }),
);
