import { field } from '../lib/form.js';
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import type { UpgradeContext, UsageHistory, UsageReport } from '../lib/types.js';
import { HISTORY_KEYS, HISTORY_LABELS, labelOf } from '../lib/usage-labels.js';
import { UsageChart } from '../components/usage-chart.js';
import { useLoad } from '../lib/use-load.js';
import { Bar, Card, ErrorNotice, Loading, Notice, when, words } from '../components/ui.js';
import { UpgradePrompt } from './journey-milestones.js';

/** The capability keys of the tier catalogue (docs/entitlements-model.md). */
const CAPABILITIES = [
  'API_ACCESS',
  'BULK_UPLOAD',
  'TRACEABILITY',
  'DIGITAL_PRODUCT_PASSPORTS',
  'EXPECTED_DATA_SETS',
  'SUPPLIER_CASCADE',
  'NETWORK_ANALYTICS',
] as const;

export function UsagePage() {
  const loaded = useLoad(() => api<UsageReport>('GET', '/entitlements/usage'));
  // Each key's last 30 days (the API's default range), one request per key, side by side.
  const histories = useLoad(() =>
    Promise.all(
      HISTORY_KEYS.map((key) => api<UsageHistory>('GET', `/entitlements/usage/history?key=${key}`)),
    ),
  );
  const [upgrade, setUpgrade] = useState<UpgradeContext | undefined>();
  const [upgradeError, setUpgradeError] = useState<unknown>();
  if (loaded.error) return <ErrorNotice error={loaded.error} />;
  if (!loaded.data) return <Loading />;
  const usage = loaded.data;
  const showUpgrade = (event: Event) => {
    event.preventDefault();
    const capability = field(new FormData(event.currentTarget as HTMLFormElement), 'capability');
    setUpgradeError(undefined);
    api<UpgradeContext>(
      'GET',
      `/entitlements/upgrade-context?capability=${encodeURIComponent(capability)}`,
    ).then(setUpgrade, setUpgradeError);
  };
  return (
    <div class="grid">
      <Card title={`Limits of ${usage.tier.name}`} id="limits">
        {usage.warnings.map((w) => (
          <Notice key={w.limit} kind={w.level === 'REACHED' ? 'error' : 'warning'}>
            {w.message}
          </Notice>
        ))}
        {Object.entries(usage.limits).map(([key, l]) => (
          <Bar key={key} label={labelOf(key)} current={l.current} max={l.unlimited ? null : l.limit} />
        ))}
      </Card>
      <Card title="Rate limits" id="rate-limits">
        {Object.keys(usage.rateLimits).length === 0 ? <p>Your tier has no API request quota.</p> : null}
        {Object.entries(usage.rateLimits).map(([key, r]) => (
          <div key={key}>
            <Bar label={labelOf(key)} current={r.current} max={r.limit} />
            <p class="small muted">Resets {when(r.resetsAt)}</p>
          </div>
        ))}
      </Card>
      <Card title="Last 30 days" id="history">
        {histories.error ? <ErrorNotice error={histories.error} /> : null}
        {!histories.data && !histories.error ? <Loading /> : null}
        <div class="chart-grid">
          {(histories.data ?? []).map((history) => (
            <UsageChart key={history.key} history={history} label={labelOf(history.key, HISTORY_LABELS)} />
          ))}
        </div>
      </Card>
      <Card title="Upgrade" id="upgrade">
        <p>
          You are on <strong>{usage.tier.name}</strong>.
        </p>
        <form class="inline-form" onSubmit={showUpgrade}>
          <label for="capability">What would an upgrade give me for</label>
          <select id="capability" name="capability">
            {CAPABILITIES.map((c) => (
              <option key={c} value={c}>
                {words(c)}
              </option>
            ))}
          </select>
          <button type="submit" class="secondary">
            Show
          </button>
        </form>
        {upgrade ? <UpgradePrompt context={upgrade} /> : null}
        <ErrorNotice error={upgradeError} />
      </Card>
    </div>
  );
}
