const MAX_EMAIL_LENGTH = 254;
// Deliberately loose: one @, something on each side, a dot in the domain, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** An ASCII (A-label) domain of at least two labels, after IDNA. */
const DOMAIN = /^(?=.{3,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/**
 * Whether `text` holds a compatibility character that looks unlike what it stands for: fullwidth
 * letters, ligatures, superscripts, circled or mathematical letters (`ｋ`, `ﬁ`, `ᵏ`, `𝐤`). Their
 * NFKC form differs from their NFC form. Characters that are *canonically* equivalent to a
 * letter (the Kelvin sign U+212A is K, the Ångström sign U+212B is Å) are the same text by
 * Unicode's own definition, map the same under IDNA, and are not refused: they simply
 * normalise (docs/identity.md, "E-mail addresses and domains").
 */
function hasCompatibilityForm(text: string): boolean {
  return text.normalize('NFC') !== text.normalize('NFKC');
}

/**
 * The one form of an e-mail domain that identity compares and stores: NFKC, lower case, then
 * IDNA (UTS #46, as `domainToASCII` does) to its ASCII A-label form (`bücher.example` becomes
 * `xn--bcher-kva.example`). `undefined` for anything that is not a domain, or that spells one
 * with confusable compatibility characters.
 */
export function normaliseDomain(domain: string): string | undefined {
  const trimmed = domain.trim();
  if (hasCompatibilityForm(trimmed)) return undefined;
  const unicode = trimmed.normalize('NFKC').toLowerCase();
  const ascii = toASCII(unicode);
  return ascii !== undefined && DOMAIN.test(ascii) && /[a-z]/.test(ascii.slice(ascii.lastIndexOf('.')))
    ? ascii
    : undefined;
}

/** What can only be URL syntax, never part of a host name: refused before the URL parser sees it. */
const URL_SYNTAX = /[\s/\\?#@:[\]%]/;

/**
 * IDNA (UTS #46, the WHATWG URL host parser: what `node:url`'s `domainToASCII` runs) without an
 * import, so the domain layer stays free of node modules; `undefined` when it is no host name.
 */
function toASCII(unicode: string): string | undefined {
  if (unicode.length === 0 || URL_SYNTAX.test(unicode)) return undefined;
  try {
    return new URL(`http://${unicode}/`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * The one form of an e-mail address that identity compares and stores, so that one address is
 * one account however it is typed: trimmed, NFKC, lower case, and its domain as
 * {@link normaliseDomain} has it. `undefined` when it is not an address or carries confusable
 * compatibility characters.
 */
export function normaliseEmailAddress(email: string): string | undefined {
  const trimmed = email.trim();
  if (hasCompatibilityForm(trimmed)) return undefined;
  const unified = trimmed.normalize('NFKC').toLowerCase();
  const at = unified.lastIndexOf('@');
  if (at <= 0) return undefined;
  const domain = normaliseDomain(unified.slice(at + 1));
  if (domain === undefined) return undefined;
  const normalised = `${unified.slice(0, at)}@${domain}`;
  return normalised.length <= MAX_EMAIL_LENGTH && EMAIL.test(normalised) ? normalised : undefined;
}

/** The domain part of a normalised address. */
export function domainOfAddress(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}
