/** The overview: plan, this month's quota with a progress bar, requests per day, and an example request. */
import type { ViewRenderer } from '../app';
import { type Child, fill, h, uid } from '../dom';
import {
  curlExample,
  formatCount,
  formatDate,
  formatDateTime,
  formatLimit,
  formatPercentUsed,
  percentUsed,
  timeUntil,
} from '../format';
import { hashOf } from '../routes';
import type { AccountData } from '../types';
import { usageChart } from './chart-view';
import { heading, loading, showLoaded } from './common';

function facts(rows: [string, Child][]): HTMLDListElement {
  return h('dl', { class: 'facts' }, ...rows.flatMap(([term, value]) => [h('dt', null, term), h('dd', null, value)]));
}

function quotaCard(data: AccountData): HTMLElement {
  const { quota, resets_at } = data.quota;
  const headingId = uid('quota');
  const labelId = uid('quota-label');
  const percent = percentUsed(quota.used, quota.effective_limit);
  const level = percent >= 100 ? 'full' : percent >= 80 ? 'high' : 'ok';
  const progress = h('progress', {
    class: `meter meter-${level}`,
    max: Math.max(quota.effective_limit, 1),
    value: Math.min(quota.used, quota.effective_limit),
    'aria-labelledby': labelId,
    'aria-valuetext': `${formatPercentUsed(quota.used, quota.effective_limit)} used`,
  });
  const overflow = quota.overflow_allowed
    ? `Included: up to ${quota.overflow_percent} % above the base limit`
    : 'Not included in your plan';
  const inOverflow = quota.overflow_allowed && quota.used > quota.base_limit;
  return h(
    'section',
    { class: 'card quota', 'aria-labelledby': headingId },
    h('h2', { id: headingId }, "This month's quota"),
    h(
      'p',
      { class: 'big', id: labelId },
      h('strong', null, formatCount(quota.used)),
      ` of ${formatCount(quota.effective_limit)} requests used`,
    ),
    progress,
    h(
      'p',
      { class: 'meter-caption' },
      `${formatPercentUsed(quota.used, quota.effective_limit)} used, ${formatCount(quota.remaining)} left. Resets ${timeUntil(resets_at, Date.now())}.`,
    ),
    inOverflow
      ? h('p', { class: 'note' }, 'You are past the base limit and using the overflow your plan includes.')
      : null,
    percent >= 100
      ? h('p', { class: 'note warn' }, 'The quota is used up: the API refuses requests until it resets.')
      : null,
    facts([
      ['Plan', data.account.plan_name],
      ['Base limit', formatCount(quota.base_limit)],
      ['Effective limit', formatCount(quota.effective_limit)],
      ['Used', formatCount(quota.used)],
      ['Remaining', formatCount(quota.remaining)],
      ['Overflow', overflow],
      ['Resets at', h('time', { datetime: resets_at }, formatDateTime(resets_at))],
    ]),
  );
}

function accountCard(data: AccountData): HTMLElement {
  const headingId = uid('account');
  const { account, keys } = data;
  const max = keys.max_active === null ? ' (no limit)' : ` of ${formatLimit(keys.max_active)}`;
  return h(
    'section',
    { class: 'card', 'aria-labelledby': headingId },
    h('h2', { id: headingId }, 'Account'),
    account.status === 'suspended'
      ? h('p', { class: 'note warn' }, 'Your account is suspended. Contact the operator of this service.')
      : null,
    facts([
      ['E-mail', account.email],
      ['Plan', h('span', null, account.plan_name, ' · ', h('a', { href: hashOf('plans') }, 'compare plans'))],
      ['Status', account.status === 'active' ? 'Active' : 'Suspended'],
      ['Member since', h('time', { datetime: account.created_at }, formatDate(account.created_at))],
      [
        'Active keys',
        h('span', null, `${formatCount(keys.active)}${max} · `, h('a', { href: hashOf('keys') }, 'manage keys')),
      ],
    ]),
  );
}

/**
 * Why the chart's requests exceed the quota's "used", when they do: quota checks are answered and drawn, but count
 * toward the minute only. The sentence names both figures the customer sees, so the two add up in front of them.
 */
function quotaChecksNote(data: AccountData): HTMLElement | null {
  const checks = data.usage.quota_checks;
  if (checks <= 0) return null;
  const used = data.quota.quota.used;
  return h(
    'p',
    { class: 'note chart-note' },
    `Of the ${formatCount(used + checks)} requests in the chart, ${formatCount(used)} count toward this month's quota. `,
    `The other ${formatCount(checks)} ${checks === 1 ? 'was a quota check' : 'were quota checks'} (`,
    h('code', null, 'GET /v1/quota'),
    '), which count toward the per-minute limit only.',
  );
}

function exampleCard(apiUrl: string): HTMLElement {
  const headingId = uid('example');
  return h(
    'section',
    { class: 'card wide', 'aria-labelledby': headingId },
    h('h2', { id: headingId }, 'Try the API'),
    h('p', null, 'Put one of your keys in the FXRATES_KEY variable of your shell, then ask for the latest rates:'),
    h('pre', { class: 'code', tabindex: 0 }, h('code', null, `export FXRATES_KEY=fxr_…\n${curlExample(apiUrl)}`)),
  );
}

export const overviewView: ViewRenderer = (app, root) => {
  const { header } = heading('Overview');
  const body = h('div', { class: 'grid' }, loading('Loading your account…'));
  root.append(header, body);
  let stopChart: (() => void) | undefined;
  void showLoaded(app, app.generation, body, app.api.account(), (data) => {
    const chart = usageChart(data.usage.month, data.usage.days, quotaChecksNote(data));
    stopChart = chart.stop;
    fill(body, quotaCard(data), accountCard(data), chart.section, exampleCard(app.config.apiUrl));
  });
  return () => stopChart?.();
};
