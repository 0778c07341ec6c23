import type { ComponentChildren, RefObject } from 'preact';
import { describe } from '../lib/use-load.js';

/** Shared pieces: every page uses these, so states look and read the same everywhere. */

/**
 * A titled section. With `headingRef` its heading can take focus: where an action removes the
 * row whose button had it, the page moves focus there instead of losing it to the document.
 */
export function Card(props: {
  title: string;
  children: ComponentChildren;
  id?: string;
  headingRef?: RefObject<HTMLHeadingElement | null>;
}) {
  const headingId = `${props.id ?? props.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-heading`;
  return (
    <section class="card" aria-labelledby={headingId}>
      <h2 id={headingId} ref={props.headingRef} tabIndex={props.headingRef ? -1 : undefined}>
        {props.title}
      </h2>
      {props.children}
    </section>
  );
}

export function Notice(props: {
  kind: 'info' | 'success' | 'error' | 'warning';
  children: ComponentChildren;
}) {
  return (
    <p class={`notice notice-${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </p>
  );
}

export function ErrorNotice(props: { error: unknown }) {
  return props.error ? <Notice kind="error">{describe(props.error)}</Notice> : null;
}

export function Loading() {
  return (
    <p class="muted" role="status">
      Loading…
    </p>
  );
}

export function Badge(props: { tone?: 'good' | 'warn' | 'bad' | 'neutral'; children: ComponentChildren }) {
  return <span class={`badge badge-${props.tone ?? 'neutral'}`}>{props.children}</span>;
}

/** A usage bar with its numbers in text (the bar alone says nothing to a screen reader). */
export function Bar(props: { label: string; current: number; max: number | null }) {
  const percent = props.max ? Math.min(100, Math.round((props.current / props.max) * 100)) : 0;
  const tone = percent >= 100 ? 'bad' : percent >= 80 ? 'warn' : 'good';
  return (
    <div class="bar-row">
      <div class="bar-label">
        <span>{props.label}</span>
        <span>
          {props.max === null ? `${props.current} of unlimited` : `${props.current} of ${props.max}`}
        </span>
      </div>
      <div
        class="bar"
        role="progressbar"
        aria-label={props.label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div class={`bar-fill bar-${tone}`} style={{ width: `${props.max === null ? 0 : percent}%` }} />
      </div>
    </div>
  );
}

export const words = (code: string): string =>
  code
    .toLowerCase()
    .split('_')
    .map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w))
    .join(' ');

export const when = (iso: string): string =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * What a MEMBER sees on an OWNER/ADMIN page: the reason in words rather than a bare refusal
 * (the console does not know the caller's role before it asks; the API's 403 says it).
 */
export function ManagersOnly(props: { what: string }) {
  return (
    <Notice kind="info">
      {props.what} are managed by your company's Owners and Admins. Ask one of them if you need a change here.
    </Notice>
  );
}
