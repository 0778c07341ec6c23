import { useEffect, useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import type {
  AdoptionState,
  CoverageCell,
  HealthExplanation,
  NextBestAction,
  RiskSignal,
} from '../lib/types.js';
import { followEvents, type LiveState } from '../lib/live-events.js';
import { useLoad } from '../lib/use-load.js';
import { Badge, Card, ErrorNotice, Loading, Notice, when, words } from '../components/ui.js';
import { MilestonesByChapter, UpgradePrompt } from './journey-milestones.js';

export const RUNGS = ['ONBOARDED', 'CONNECTED', 'EXCHANGING', 'TRACED', 'STRATEGIC'] as const;
const BAND_TONE: Record<string, 'good' | 'warn' | 'bad' | 'neutral'> = {
  HEALTHY: 'good',
  ONBOARDING: 'neutral',
  AT_RISK: 'warn',
  DRIFTING: 'bad',
};

interface Journey {
  state: AdoptionState;
  next: NextBestAction;
  health: HealthExplanation;
  coverage: { cells: CoverageCell[] };
  risks: { signals: RiskSignal[] };
}

const loadJourney = async (): Promise<Journey> => {
  const [state, next, health, coverage, risks] = await Promise.all([
    api<AdoptionState>('GET', '/tenant/adoption/state'),
    api<NextBestAction>('GET', '/tenant/adoption/next-best-action'),
    api<HealthExplanation>('GET', '/tenant/adoption/health-explanation'),
    api<{ cells: CoverageCell[] }>('GET', '/tenant/adoption/coverage'),
    api<{ signals: RiskSignal[] }>('GET', '/tenant/adoption/risk-signals?limit=20'),
  ]);
  return { state, next, health, coverage, risks };
};

function Ladder(props: { current: string }) {
  const at = RUNGS.indexOf(props.current as (typeof RUNGS)[number]);
  return (
    <ol class="ladder" aria-label="Maturity ladder">
      {RUNGS.map((rung, i) => (
        <li
          key={rung}
          class={i < at ? 'rung passed' : i === at ? 'rung current' : 'rung'}
          aria-current={i === at ? 'step' : undefined}
        >
          <span class="rung-step">{i + 1}</span> {words(rung)}
        </li>
      ))}
    </ol>
  );
}

const LIVE_WORDS: Record<LiveState, string> = {
  connecting: 'Connecting to live updates…',
  live: 'Live: this page updates as soon as a milestone is completed.',
  ended: 'Live updates stopped: your session has ended. Sign in again to resume them.',
};

/**
 * Follows `milestone.completed` on the events feed while the page is open: each one reloads the
 * journey from the API (the rung, health and next action may move with it) and is announced.
 */
function useLiveMilestones(reload: () => void) {
  const [live, setLive] = useState<LiveState>('connecting');
  const [news, setNews] = useState<string | undefined>();
  useEffect(
    () =>
      followEvents(['milestone.completed'], {
        onState: setLive,
        onEvent: (event) => {
          const key = event.subject['milestoneKey'];
          setNews(key ? `Just completed: ${words(key)}.` : 'A milestone was just completed.');
          reload();
        },
      }),
    [reload],
  );
  return { live, news };
}

export function JourneyPage() {
  const loaded = useLoad(loadJourney);
  const [conflict, setConflict] = useState(false);
  const { live, news } = useLiveMilestones(loaded.reload);
  if (loaded.error) return <ErrorNotice error={loaded.error} />;
  if (!loaded.data) return <Loading />;
  const { state, next, health, coverage, risks } = loaded.data;
  const nba = next.nextBestAction;
  const onChange = (_state: AdoptionState | null, isConflict: boolean) => {
    setConflict(isConflict);
    loaded.reload();
  };
  return (
    <div class="grid">
      <Card title="Maturity" id="maturity">
        <Ladder current={state.currentMaturityRung} />
        <p class="small muted">{health.rungReason}</p>
      </Card>
      <Card title="Health" id="health">
        <p class="health" data-testid="health">
          <Badge tone={BAND_TONE[state.healthBand] ?? 'neutral'}>{words(state.healthBand)}</Badge>{' '}
          <span class="score">
            {state.healthScore === null ? 'Not scored yet' : `${state.healthScore} / 100`}
          </span>
        </p>
        <p>{health.summary}</p>
        <p class="small muted">{health.bandReason}</p>
        <ul class="small">
          {health.components.map((c) => (
            <li key={c.code}>
              {words(c.code)}: {c.points} points — {c.reason}
            </li>
          ))}
        </ul>
      </Card>
      <Card title="Next best action" id="next-best-action">
        {nba ? (
          <div data-testid="next-best-action">
            <p>
              <strong>{words(nba.key)}</strong> <span class="muted small">unlocks {nba.unlocks} more</span>
            </p>
            <p>
              <span class="muted">Why: </span>
              {nba.becauseOf}
            </p>
          </div>
        ) : (
          <p>Nothing left to do on your path right now.</p>
        )}
        {next.nextUpgradePrompt ? <UpgradePrompt context={next.nextUpgradePrompt} /> : null}
      </Card>
      <Card title="Milestones" id="milestones">
        <p class="small muted" data-testid="live-updates" data-live={String(live === 'live')}>
          {LIVE_WORDS[live]}
        </p>
        {news ? <Notice kind="success">{news}</Notice> : null}
        <MilestonesByChapter
          state={state}
          onChange={onChange}
          conflict={conflict}
          reloading={loaded.loading}
        />
      </Card>
      <Card title="Coverage" id="coverage">
        <ul class="coverage">
          {coverage.cells.map((cell) => (
            <li
              key={cell.key}
              class={cell.achieved ? 'cell achieved' : cell.capable ? 'cell' : 'cell not-capable'}
            >
              <span class="cell-label">{cell.label}</span>
              <span class="small">
                {cell.achieved ? 'Achieved' : cell.capable ? 'Not yet' : 'Not in your tier'} · {cell.count}{' '}
                done
                {cell.viewedCount ? `, ${cell.viewedCount} viewed` : ''}
              </span>
            </li>
          ))}
        </ul>
      </Card>
      <Card title="Open risk signals" id="risks">
        {risks.signals.length === 0 ? (
          <p>No open risk signals.</p>
        ) : (
          <ul>
            {risks.signals.map((s) => (
              <li key={s.id}>
                <Badge tone="warn">{words(s.severity)}</Badge> {words(s.kind)} · {words(s.resolution)}
                {s.escalatedToHuman ? ' · escalated' : ''} · since {when(s.detectedAt)}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
