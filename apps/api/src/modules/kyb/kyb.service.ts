import type { CreateKybApplicationRequest, KybReviewQuery } from '@cp/contracts';
import type { Database } from '@cp/db';
import { z } from 'zod';
import type { Config } from '../../config/env.ts';
import { AppError } from '../../errors/app-error.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { ADMIN_CLI_ACTOR, recordAuditEvent } from '../audit-events/audit-events.service.ts';
import * as mediaService from '../media/media.service.ts';
import * as organizationsService from '../organizations/organizations.service.ts';
import * as usersService from '../users/users.service.ts';
import { KYB_DECISION_MAIL_QUEUE, type KybDecisionMailJob } from './kyb.mail.ts';
import * as repository from './kyb.repository.ts';

export type { KybApplicationRow } from './kyb.repository.ts';

const zUuid = z.uuid();

/**
 * Platform administrators are named by e-mail in ADMIN_EMAILS (compared case-insensitively), and only an
 * address the identity provider verified counts: anyone can sign up with any address at a provider.
 */
export function isPlatformAdmin(
  config: Pick<Config, 'adminEmails'>,
  user: { email: string | null | undefined; emailVerified: boolean },
) {
  return Boolean(user.email) && user.emailVerified && config.adminEmails.includes(user.email!.trim().toLowerCase());
}

/** Issuing calls this: only an organization approved by KYB may issue credentials. */
export async function assertOrganizationVerified(db: Database, organizationId: string) {
  assertVerified(await repository.findOrganizationVerification(db, organizationId));
}

/** The same check on an organization's KYB state read by the caller (undefined: no such organization). */
export function assertVerified(row: { verificationStatus: string; verifiedAt: Date | null } | undefined) {
  if (row?.verificationStatus !== 'APPROVED' || row.verifiedAt === null) {
    throw new AppError('ORGANIZATION_NOT_VERIFIED', {
      detail: 'The organization must be verified (KYB) before it can issue credentials.',
    });
  }
}

/** The latest application with its documents; the caller must be a member (404 otherwise). */
export async function getLatestApplication(
  db: Database,
  params: { organizationId: string; userId: string; twoFactor: boolean },
) {
  await organizationsService.getOrganization(db, params);
  const application = await repository.findLatestApplication(db, params.organizationId);
  if (!application) return null;
  const documents = await mediaService.findOrganizationMedia(db, params.organizationId, application.documentIds);
  return { application, documents };
}

/**
 * A new application: 1–5 KYB documents uploaded by this organization. Allowed when the organization never
 * applied or its latest application was rejected; a pending or approved one answers 409.
 */
export async function submitApplication(
  db: Database,
  params: { organizationId: string; userId: string; twoFactor: boolean },
  input: CreateKybApplicationRequest,
) {
  const organization = await organizationsService.getOrganization(db, params);
  const documentIds = [...new Set(input.documents)];
  const documents = await mediaService.findOrganizationMedia(db, params.organizationId, documentIds);
  if (documents.length !== documentIds.length || documents.some((d) => mediaService.purposeOf(d) !== 'kyb_document')) {
    throw new AppError('KYB_DOCUMENT_INVALID', {
      detail: 'Every document must be a file uploaded by this organization with purpose kyb_document.',
    });
  }
  return db.transaction(async (tx) => {
    const latest = await repository.findLatestApplication(tx, params.organizationId);
    if (latest?.status === 'PENDING' || organization.verificationStatus === 'PENDING') {
      throw new AppError('KYB_ALREADY_PENDING', { detail: 'An application is already under review.' });
    }
    if (latest?.status === 'APPROVED' || organization.verificationStatus === 'APPROVED') {
      throw new AppError('KYB_ALREADY_APPROVED', { detail: 'The organization is already verified.' });
    }
    const application = await repository.insertApplication(tx, params.organizationId, {
      documentIds,
      submittedByUserId: params.userId,
    });
    await repository.setOrganizationVerification(tx, params.organizationId, {
      verificationStatus: 'PENDING',
      verifiedAt: null,
    });
    await recordAuditEvent(
      tx,
      { organizationId: params.organizationId, actor: { kind: 'user', userId: params.userId } },
      {
        action: 'kyb.submitted',
        target: { id: application.id, label: organization.name },
        details: { document_count: documentIds.length },
      },
    );
    return { application, documents };
  });
}

async function assertReviewer(db: Database, config: Pick<Config, 'adminEmails'>, userId: string) {
  const user = await usersService.getUser(db, userId);
  if (!isPlatformAdmin(config, user)) {
    throw new AppError('KYB_REVIEW_FORBIDDEN', { detail: 'Only platform administrators review applications.' });
  }
  return user.email!;
}

async function withDocuments(
  db: Database,
  rows: { application: repository.KybApplicationRow; organizationName: string }[],
) {
  const documents = await mediaService.findMediaByIds(
    db,
    rows.flatMap((r) => r.application.documentIds),
  );
  return rows.map((r) => ({
    ...r,
    // Only the documents of the application's own organization (its ids were checked at submission).
    documents: documents.filter((d) => d.organizationId === r.application.organizationId),
  }));
}

/** Who reviews: a signed-in platform administrator (console) or the admin CLI (trusted by its transport). */
export type Reviewer = { kind: 'user'; userId: string } | { kind: 'cli' };

async function reviewerName(db: Database, config: Pick<Config, 'adminEmails'>, reviewer: Reviewer) {
  return reviewer.kind === 'cli' ? 'admin-cli' : assertReviewer(db, config, reviewer.userId);
}

export async function findApplicationsForReview(
  db: Database,
  config: Pick<Config, 'adminEmails'>,
  reviewer: Reviewer,
  query: Pick<KybReviewQuery, 'status' | 'page' | 'limit'>,
) {
  await reviewerName(db, config, reviewer);
  const { rows, total } = await repository.findApplicationsForReview(db, query);
  return { rows: await withDocuments(db, rows), total };
}

export interface ReviewDeps {
  db: Database;
  config: Pick<Config, 'adminEmails'>;
  jobs: Pick<JobQueue, 'send'>;
}

/** Approves or rejects a pending application, updates the organization and e-mails its members (by job). */
export async function reviewApplication(
  deps: ReviewDeps,
  reviewer: Reviewer,
  applicationId: string,
  decision: { status: 'APPROVED' } | { status: 'REJECTED'; reason: string },
) {
  const reviewedBy = await reviewerName(deps.db, deps.config, reviewer);
  if (!zUuid.safeParse(applicationId).success) throw new AppError('KYB_APPLICATION_NOT_FOUND');
  const found = await repository.findApplicationForReview(deps.db, applicationId);
  if (!found) throw new AppError('KYB_APPLICATION_NOT_FOUND');
  const reason = decision.status === 'REJECTED' ? decision.reason : null;
  const application = await deps.db.transaction(async (tx) => {
    const row = await repository.reviewApplication(tx, applicationId, { status: decision.status, reviewedBy, reason });
    if (!row) {
      throw new AppError('KYB_APPLICATION_ALREADY_REVIEWED', {
        detail: `The application is already ${found.application.status.toLowerCase()}.`,
      });
    }
    await repository.setOrganizationVerification(tx, row.organizationId, {
      verificationStatus: decision.status,
      verifiedAt: decision.status === 'APPROVED' ? (row.reviewedAt ?? new Date()) : null,
    });
    // The organization sees who decided: the administrator (by their name) or the admin CLI (SYSTEM).
    const actor = reviewer.kind === 'user' ? { kind: 'user' as const, userId: reviewer.userId } : ADMIN_CLI_ACTOR;
    const target = { id: row.id, label: found.organizationName };
    await recordAuditEvent(
      tx,
      { organizationId: row.organizationId, actor },
      decision.status === 'APPROVED'
        ? { action: 'kyb.approved', target, details: {} }
        : { action: 'kyb.rejected', target, details: { reason: decision.reason } },
    );
    return row;
  });
  const members = await repository.findMemberEmails(deps.db, application.organizationId);
  for (const member of members) {
    await deps.jobs.send<KybDecisionMailJob>(KYB_DECISION_MAIL_QUEUE, {
      to: member.email,
      firstName: member.firstName,
      locale: member.locale,
      organizationId: application.organizationId,
      organizationName: found.organizationName,
      status: decision.status,
      reason,
    });
  }
  const [withDocs] = await withDocuments(deps.db, [{ application, organizationName: found.organizationName }]);
  return withDocs!;
}
