import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The rules we hold every page to: WCAG 2.0, 2.1 and 2.2 at levels A and AA, plus axe-core's best practices
 * (landmarks, one main, headings, …). https://www.w3.org/TR/WCAG22/
 */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];

/** Impacts that fail a page; `moderate` and `minor` are printed, to be fixed when easy. */
const BLOCKING = new Set(['serious', 'critical']);

export interface AccessibilityFinding {
  /** The page's label in the test (`credentials list 390 en`). */
  page: string;
  rule: string;
  impact: string;
  help: string;
  helpUrl: string;
  /** One entry per offending element: its CSS selector and what axe-core says to fix. */
  nodes: { target: string; html: string; summary: string }[];
}

/** Every finding of this run, blocking or not: the test file writes them out as a summary. */
export const findings: AccessibilityFinding[] = [];

/**
 * Waits for the layout of the current width (two frames: a media query's change re-renders the page), then until
 * CSS transitions and finite animations (a dialog fading in, a menu growing) have ended.
 */
async function settle(page: Page) {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' ||
            animation.effect?.getComputedTiming().endTime === Number.POSITIVE_INFINITY,
        ),
    undefined,
    { timeout: 5_000 },
  );
}

/**
 * Runs axe-core once in the page as it is now and returns its violations, and whether a transition or an animation
 * started while it ran (then what it saw may be a mix of two states: a notice fading out has half its contrast).
 * The engine is injected with `page.evaluate(source)`: evaluation through the DevTools protocol is not subject to
 * the page's Content-Security-Policy, which rightly refuses inline scripts.
 */
async function runAxe(page: Page) {
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) await page.evaluate(axe.source);
  return page.evaluate(async (tags) => {
    let moved = false;
    const onMove = () => {
      moved = true;
    };
    const events = ['transitionrun', 'animationstart'] as const;
    for (const event of events) document.addEventListener(event, onMove, true);
    const engine = (window as unknown as { axe: typeof import('axe-core') }).axe;
    try {
      const results = await engine.run(document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      const violations = results.violations.map((violation) => ({
        rule: violation.id,
        impact: violation.impact ?? 'unknown',
        help: violation.help,
        helpUrl: violation.helpUrl,
        nodes: violation.nodes.map((node) => ({
          target: node.target.map((part) => (Array.isArray(part) ? part.join(' >>> ') : String(part))).join(' '),
          // Generated class names say little: the element's own markup says which it is.
          html: node.html.length > 200 ? `${node.html.slice(0, 200)}…` : node.html,
          summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
        })),
      }));
      return { violations, moved };
    } finally {
      for (const event of events) document.removeEventListener(event, onMove, true);
    }
  }, AXE_TAGS);
}

/**
 * Audits the page once it is still and returns axe-core's violations. When something moved during the audit (a
 * notice hiding itself after its few seconds, on a slow machine), the page is let settle and audited again, up to
 * three times: the findings are those of a page at rest.
 */
export async function auditAccessibility(page: Page, label: string): Promise<AccessibilityFinding[]> {
  let run: Awaited<ReturnType<typeof runAxe>> | undefined;
  for (let attempt = 0; attempt < 3 && (run === undefined || run.moved); attempt++) {
    if (attempt > 0) console.info(`Something moved while "${label}" was audited: audited again once it was still`);
    await settle(page);
    run = await runAxe(page);
  }
  const result = (run?.violations ?? []).map((violation) => ({ page: label, ...violation }));
  findings.push(...result);
  return result;
}

function describe(finding: AccessibilityFinding): string {
  const nodes = finding.nodes.map((node) => `    - ${node.target}  ${node.html}\n      ${node.summary}`).join('\n');
  return `[${finding.impact}] ${finding.rule}: ${finding.help} (${finding.helpUrl})\n${nodes}`;
}

/**
 * Fails (softly: the test goes on and reports every page) when the page has a serious or critical axe-core
 * finding, listing each with its rule, what it means and the selectors of the elements at fault. Moderate and
 * minor findings are printed only.
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const result = await auditAccessibility(page, label);
  const blocking = result.filter((finding) => BLOCKING.has(finding.impact));
  const advisory = result.filter((finding) => !BLOCKING.has(finding.impact));
  if (advisory.length > 0) {
    console.info(`Accessibility notes on "${label}" (${page.url()}):\n${advisory.map(describe).join('\n')}`);
  }
  expect
    .soft(
      blocking.length,
      `serious or critical accessibility findings on "${label}" (${page.url()}):\n${blocking.map(describe).join('\n')}\n`,
    )
    .toBe(0);
}

/** Counts by rule and impact, e.g. for a summary written after a run. */
export function summarize(
  list: AccessibilityFinding[],
): { rule: string; impact: string; pages: number; nodes: number }[] {
  const byRule = new Map<string, { rule: string; impact: string; pages: number; nodes: number }>();
  for (const finding of list) {
    const key = `${finding.impact} ${finding.rule}`;
    const entry = byRule.get(key) ?? { rule: finding.rule, impact: finding.impact, pages: 0, nodes: 0 };
    entry.pages += 1;
    entry.nodes += finding.nodes.length;
    byRule.set(key, entry);
  }
  return [...byRule.values()].sort((a, b) => b.nodes - a.nodes);
}
