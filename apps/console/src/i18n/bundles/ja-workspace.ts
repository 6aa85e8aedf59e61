import shell from '../../app/shell/locales/ja.json';
import { type MessageTree, mergeMessages } from '../message-tree.ts';

/**
 * The ja messages a signed-in user's first page shows, loaded with the app shell: the shell's own
 * (app/shell/locales: menu, organization switcher, words shared by signed-in pages, the menu labels of pages whose
 * messages come later) and, of each feature, those the credential list shows at once
 * (`features/<feature>/locales/first-page/ja.json`: the list, the KYB banner, the profile hint). The rest, the
 * dialogs the list opens and the two-step sign-in notice included, are in `ja-workspace-pages.ts` (issue 16).
 */
export const messages: MessageTree = mergeMessages(
  shell as MessageTree,
  import.meta.glob<MessageTree>('../../features/*/locales/first-page/ja.json', { eager: true, import: 'default' }),
);
