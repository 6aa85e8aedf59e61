import type { AppContext } from '../../context.ts';
import { runImport } from './credential-imports.service.ts';

export const CREDENTIAL_IMPORT_QUEUE = 'credentials.import';

export interface CredentialImportJob {
  importId: string;
}

export function importDeps(ctx: AppContext) {
  return {
    db: ctx.database.db,
    storage: ctx.storage,
    statusListSize: ctx.config.credentialEngine.statusListSize,
    enqueue: async (importId: string) => {
      await ctx.jobs.send<CredentialImportJob>(CREDENTIAL_IMPORT_QUEUE, { importId }, { singletonKey: importId });
    },
  };
}

/** The durable import job: a retry (or a restart) resumes the import without duplicating rows. */
export async function registerCredentialImportWorker(ctx: AppContext) {
  const deps = importDeps(ctx);
  await ctx.jobs.register<CredentialImportJob>(CREDENTIAL_IMPORT_QUEUE, async (job) => {
    await runImport(deps, job.importId);
  });
}
