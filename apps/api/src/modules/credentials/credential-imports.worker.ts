import type { AppContext } from '../../context.ts';
import { runImport } from './credential-imports.service.ts';

export const CREDENTIAL_IMPORT_QUEUE = 'credentials.import';

export interface CredentialImportJob {
  importId: string;
}

/** The durable import job: a retry (or a restart) resumes the import without duplicating rows. */
export async function registerCredentialImportWorker(ctx: AppContext) {
  const deps = ctx.deps.imports;
  await ctx.jobs.register<CredentialImportJob>(CREDENTIAL_IMPORT_QUEUE, async (job) => {
    await runImport(deps, job.importId);
  });
}
