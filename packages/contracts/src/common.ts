import { z } from 'zod';

/** RFC 9457 problem details, as every API error is rendered. */
export const zProblem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  code: z.string(),
  detail: z.string().optional(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type Problem = z.infer<typeof zProblem>;

export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZE_MAX = 100;

export const zPageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  /** Cache-busting timestamp the console adds to GET and DELETE (spec §7). */
  t: z.string().max(32).optional(),
});
export type PageQuery = z.infer<typeof zPageQuery>;

export const zIdParams = z.object({ id: z.uuid() });

/** An http(s) URL without credentials in it (where others' documents are read, or events sent). */
export const zHttpUrl = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
      } catch {
        return false;
      }
    }, 'Must be a valid URL');

export const zMedia = z.object({
  id: z.uuid(),
  url: z.string(),
  filename: z.string(),
  created_at: z.iso.datetime({ offset: true }),
});
export type Media = z.infer<typeof zMedia>;

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ results: z.array(item), total: z.number().int(), page: z.number().int(), limit: z.number().int() });

/** An IANA time zone name Intl knows (`Asia/Tokyo`, `UTC`): the zone a client's calendar days and times are in. */
export const zTimeZone = z
  .string()
  .max(64)
  .refine((name) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      return true;
    } catch {
      return false;
    }
  }, 'Must be an IANA time zone such as Asia/Tokyo');
