import { field } from '../lib/form.js';
import { useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api.js';
import type { AdoptionState, Milestone, UpgradeContext } from '../lib/types.js';
import { Badge, ErrorNotice, Notice, words } from '../components/ui.js';

const STATUS_TONE: Record<string, 'good' | 'warn' | 'bad' | 'neutral'> = {
  DONE: 'good',
  IN_PROGRESS: 'warn',
  AVAILABLE: 'neutral',
  LOCKED: 'bad',
  NOT_APPLICABLE: 'neutral',
};

export function UpgradePrompt(props: { context: UpgradeContext }) {
  const c = props.context;
  return (
    <div class="upgrade" data-testid="upgrade-prompt">
      <strong>{c.headline}</strong>
      {c.featureHighlights.length > 0 ? (
        <ul>
          {c.featureHighlights.map((h) => (
            <li key={h}>{h}</li>
          ))}
        </ul>
      ) : null}
      <p>
        {c.upgradeAvailable && c.targetTier
          ? `${c.cta} — ${c.currentTier.name} → ${c.targetTier.name}`
          : `${c.cta} (no higher tier offers this)`}
      </p>
    </div>
  );
}

/**
 * Manual completion with an evidence reference. `expectedVersion` is the version the page
 * showed: a `409` means someone else moved the journey first, so the page reloads it.
 */
function CompleteForm(props: {
  milestone: Milestone;
  version: number;
  /** The journey is being read again: its version is about to change, so nothing is sent meanwhile. */
  reloading: boolean;
  onDone: (state: AdoptionState | null, conflict: boolean) => void;
}) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const id = `evidence-${props.milestone.key}`;
  const submit = async (event: Event) => {
    event.preventDefault();
    const evidenceRef = field(new FormData(event.currentTarget as HTMLFormElement), 'evidenceRef').trim();
    setBusy(true);
    try {
      const state = await api<AdoptionState>(
        'POST',
        `/tenant/adoption/milestones/${encodeURIComponent(props.milestone.key)}/complete`,
        {
          ...(evidenceRef ? { evidenceRef } : {}),
          expectedVersion: props.version,
        },
      );
      props.onDone(state, false);
    } catch (caught) {
      setBusy(false);
      if (caught instanceof ApiError && caught.status === 409) props.onDone(null, true);
      else setError(caught);
    }
  };
  return (
    <form class="inline-form" onSubmit={(e) => void submit(e)}>
      <label for={id}>Evidence reference (e.g. crm:call-123)</label>
      <input id={id} name="evidenceRef" maxLength={500} disabled={props.reloading} />
      <button type="submit" disabled={busy || props.reloading}>
        Mark as done
      </button>
      <ErrorNotice error={error} />
    </form>
  );
}

function MilestoneRow(props: {
  m: Milestone;
  version: number;
  reloading: boolean;
  onChange: (state: AdoptionState | null, conflict: boolean) => void;
}) {
  const { m } = props;
  const manual = m.completionMode === 'MANUAL';
  const completable = manual && (m.status === 'AVAILABLE' || m.status === 'IN_PROGRESS');
  return (
    <li class="milestone" data-milestone={m.key} data-status={m.status}>
      <div class="milestone-head">
        <span class="milestone-name">{words(m.key)}</span>
        <Badge tone={STATUS_TONE[m.status] ?? 'neutral'}>{words(m.status)}</Badge>
        {m.paidTeaser ? <Badge tone="warn">Paid: {words(m.requiredCapability ?? 'upgrade')}</Badge> : null}
      </div>
      <p class="muted small">
        {words(m.internalStage)} · {manual ? 'completed by you' : `completes on ${m.triggerEvent}`}
        {m.completedAt ? ` · done ${new Date(m.completedAt).toLocaleDateString()}` : ''}
      </p>
      {m.lockedReasons.length > 0 ? (
        <p class="small">
          Locked until: {m.lockedReasons.map((r) => words(r.unmetDependencyKey)).join(', ')}
        </p>
      ) : null}
      {m.paidTeaser && m.upgradeContext ? <UpgradePrompt context={m.upgradeContext} /> : null}
      {completable ? (
        <CompleteForm
          milestone={m}
          version={props.version}
          reloading={props.reloading}
          onDone={props.onChange}
        />
      ) : null}
    </li>
  );
}

/** Milestones by chapter, each with status, lock reasons, paid teaser and manual completion. */
export function MilestonesByChapter(props: {
  state: AdoptionState;
  onChange: (state: AdoptionState | null, conflict: boolean) => void;
  conflict: boolean;
  reloading: boolean;
}) {
  const chapters = new Map<number, Milestone[]>();
  for (const m of [...props.state.milestones].sort((a, b) => a.displayOrder - b.displayOrder)) {
    chapters.set(m.chapter, [...(chapters.get(m.chapter) ?? []), m]);
  }
  return (
    <div>
      {props.conflict ? (
        <Notice kind="warning">
          The journey changed while you were looking at it (409). It has been reloaded: check the milestone
          and try again.
        </Notice>
      ) : null}
      {[...chapters.entries()].map(([chapter, milestones]) => (
        <section key={chapter} class="chapter" aria-labelledby={`chapter-${chapter}`}>
          <h3 id={`chapter-${chapter}`}>
            Chapter {chapter}{' '}
            <span class="muted small">
              {milestones.filter((m) => m.status === 'DONE').length} of {milestones.length} done
            </span>
          </h3>
          <ul class="milestones">
            {milestones.map((m) => (
              <MilestoneRow
                key={m.key}
                m={m}
                version={props.state.version}
                reloading={props.reloading}
                onChange={props.onChange}
              />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
