/** A text field of a submitted form ('' when absent or a file). */
export function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** Every checked value of a checkbox group. */
export function fields(form: FormData, name: string): string[] {
  return form.getAll(name).filter((v): v is string => typeof v === 'string');
}
