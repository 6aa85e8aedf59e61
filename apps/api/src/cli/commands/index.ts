import { accountCommands } from './accounts.ts';
import { apiKeyCommands } from './api-keys.ts';
import { keyCommands } from './keys.ts';
import { kybCommands } from './kyb.ts';
import type { AdminCommand } from './types.ts';

/** Every admin command, by its words (`org list`). Capabilities add theirs from their own file. */
export const adminCommands: Record<string, AdminCommand> = {
  ...accountCommands,
  ...keyCommands,
  ...apiKeyCommands,
  ...kybCommands,
};

export type { AdminArgs, AdminCommand, AdminCommandDeps } from './types.ts';
