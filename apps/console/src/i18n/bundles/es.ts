import base from '../locales/es.json';
import { type MessageTree, mergeMessages } from '../messages.ts';

/** Every es message (its own chunk: loaded only when es is shown). */
export const messages: MessageTree = mergeMessages(
  base as MessageTree,
  import.meta.glob<MessageTree>('../../features/*/locales/es.json', { eager: true, import: 'default' }),
);
