/** Answers routes declare beside their schemas (`extraResponses`), shared so each is written once. */

/** A 204 with no body. */
export const noContent = (description: string) => ({ 204: { description, type: 'null' } });

/**
 * The SSO routes' one answer: a redirect with no body, failures included (spec: "Both SSO
 * endpoints answer 302, not JSON"). Only the router's own refusals (an over-long path
 * parameter) and a draining process answer JSON.
 */
export const redirect = (description: string) => ({
  302: {
    description,
    type: 'null',
    headers: {
      Location: {
        type: 'string',
        format: 'uri',
        description: 'Where the browser goes next (an absolute URL)',
      },
      'Cache-Control': { type: 'string', const: 'no-store', description: 'Never cached' },
    },
  },
});
