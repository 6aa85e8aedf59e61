import base from '../locales/en.json';
import { type MessageTree, mergeMessages } from '../messages.ts';

/** Every en message (its own chunk: loaded only when en is shown). */
export const messages: MessageTree = mergeMessages(
  base as MessageTree,
  import.meta.glob<MessageTree>('../../features/*/locales/en.json', { eager: true, import: 'default' }),
);
