import { type MessageTree, mergeMessages } from '../message-tree.ts';

/**
 * The ko messages of the signed-in pages beyond the credential list (schemas, verifications, trust anchors,
 * integrations, activity, members): every route but the list awaits them; the shell fetches them once idle.
 */
export const messages: MessageTree = mergeMessages(
  {},
  import.meta.glob<MessageTree>(
    '../../features/{activity,credential-schemas,integrations,members,trust-anchors,verifications,wallet-providers}/locales/ko.json',
    { eager: true, import: 'default' },
  ),
);
