import { field, fields } from '../lib/form.js';
import { useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api.js';
import type { AdoptionState, SuccessPlan } from '../lib/types.js';
import { useLoad } from '../lib/use-load.js';
import { Badge, Card, ErrorNotice, Loading, Notice, words } from '../components/ui.js';

const dayAfter = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** A date field's day as a timestamp at noon UTC (the API wants ISO 8601, in the future). */
const asTimestamp = (day: string) => new Date(`${day}T12:00:00.000Z`).toISOString();

const loadPlan = async () => {
  const [plan, state] = await Promise.all([
    api<SuccessPlan | null>('GET', '/tenant/adoption/success-plan'),
    api<AdoptionState>('GET', '/tenant/adoption/state'),
  ]);
  return { plan, state };
};

function CreatePlan(props: { state: AdoptionState; onCreated: () => void }) {
  const [error, setError] = useState<unknown>();
  const choices = props.state.milestones.filter((m) => m.status !== 'NOT_APPLICABLE');
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setError(undefined);
    try {
      await api('POST', '/tenant/adoption/success-plan', {
        title: field(form, 'title'),
        targetDate: asTimestamp(field(form, 'targetDate')),
        objectives: [{ label: field(form, 'objective'), milestoneKeys: fields(form, 'milestoneKeys') }],
      });
      props.onCreated();
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 409) props.onCreated();
      else setError(caught);
    }
  };
  return (
    <Card title="Create a success plan" id="create-plan">
      <p class="muted">
        No active plan yet. Owners and admins can set one: a target date and the milestones that matter.
      </p>
      <form onSubmit={(e) => void submit(e)}>
        <label for="title">Title</label>
        <input id="title" name="title" required maxLength={200} />
        <label for="targetDate">Target date</label>
        <input
          id="targetDate"
          name="targetDate"
          type="date"
          required
          min={dayAfter(1)}
          value={dayAfter(90)}
        />
        <label for="objective">Objective</label>
        <input id="objective" name="objective" required maxLength={200} />
        <fieldset>
          <legend>Milestones this objective needs</legend>
          <div class="checks">
            {choices.map((m) => (
              <label key={m.key} class="check">
                <input type="checkbox" name="milestoneKeys" value={m.key} /> {words(m.key)}
              </label>
            ))}
          </div>
        </fieldset>
        <ErrorNotice error={error} />
        <button type="submit">Create plan</button>
      </form>
    </Card>
  );
}

function RenewPlan(props: { plan: SuccessPlan; onRenewed: () => void }) {
  const [error, setError] = useState<unknown>();
  const submit = async (event: Event) => {
    event.preventDefault();
    const day = field(new FormData(event.currentTarget as HTMLFormElement), 'renewDate');
    setError(undefined);
    try {
      await api<AdoptionState>('POST', '/tenant/adoption/success-plan/renew', {
        fromPlanId: props.plan.id,
        targetDate: asTimestamp(day),
      });
      props.onRenewed();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <form class="inline-form" onSubmit={(e) => void submit(e)}>
      <label for="renewDate">New target date</label>
      <input id="renewDate" name="renewDate" type="date" required min={dayAfter(1)} value={dayAfter(90)} />
      <button type="submit">Renew plan</button>
      <ErrorNotice error={error} />
    </form>
  );
}

export function PlanPage() {
  const loaded = useLoad(loadPlan);
  const [renewed, setRenewed] = useState(false);
  if (loaded.error) return <ErrorNotice error={loaded.error} />;
  if (!loaded.data) return <Loading />;
  const { plan, state } = loaded.data;
  if (!plan) return <CreatePlan state={state} onCreated={loaded.reload} />;
  return (
    <Card title={plan.title} id="plan">
      {renewed ? <Notice kind="success">Plan renewed: the objectives were carried forward.</Notice> : null}
      <p data-testid="plan-status">
        <Badge tone="good">{words(plan.status)}</Badge> target{' '}
        {new Date(plan.targetDate).toLocaleDateString()}
        {plan.renewedFromId ? <span class="muted small"> · renewed from an earlier plan</span> : null}
      </p>
      <h3>Objectives</h3>
      <ul>
        {plan.objectives.map((o) => (
          <li key={o.label}>
            <Badge tone={o.met ? 'good' : 'neutral'}>{o.met ? 'Met' : 'Open'}</Badge> {o.label}
            <span class="muted small"> — {o.milestoneKeys.map(words).join(', ') || 'no milestones'}</span>
          </li>
        ))}
      </ul>
      <h3>Renew</h3>
      <RenewPlan
        plan={plan}
        onRenewed={() => {
          setRenewed(true);
          loaded.reload();
        }}
      />
    </Card>
  );
}
