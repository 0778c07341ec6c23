import { eventErrors } from '../errors.js';

/** Rejects filter subjects outside the events prefix, so a wrong configuration fails the start. */
export function checkFilterSubjects(
  durableName: string,
  subjectPrefix: string,
  filterSubjects: readonly string[],
): void {
  const outside = filterSubjects.filter((s) => !s.startsWith(`${subjectPrefix}.`));
  if (outside.length > 0) {
    throw eventErrors.create('EVENT_CONSUMER_MISCONFIGURED', {
      message: `filter subjects must start with ${subjectPrefix}.`,
      details: { durable: durableName, filterSubjects: outside },
    });
  }
}
