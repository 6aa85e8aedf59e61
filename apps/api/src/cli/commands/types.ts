import type { Database, SecretBox } from '@cp/db';
import type { Config } from '../../config/env.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';

/** What an admin command may use: the same whether it runs inside the server or in the CLI process. */
export interface AdminCommandDeps {
  db: Database;
  config: Config;
  secretBox: SecretBox;
  /** Durable jobs (e-mails, webhooks): delivered by the server's workers, now or when it next starts. */
  jobs: JobQueue;
}

export type AdminArgs = Record<string, string | boolean | undefined>;

export interface AdminCommand {
  /** One usage line, e.g. `org create --name <name> --member <e-mail> [--verified]`. */
  usage: string;
  options: Record<string, { type: 'string' | 'boolean' }>;
  required?: string[];
  /** Returns the text to print (one line per record where it lists things). */
  run(deps: AdminCommandDeps, args: AdminArgs): Promise<string>;
}
