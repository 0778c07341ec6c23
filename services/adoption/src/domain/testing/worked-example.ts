/**
 * The worked example of docs/adoption-model.md, kept as data so a test holds the document to
 * the code: if a rule changes, the test fails until the document is updated.
 */
import type { RecomputeInput } from '../state/recompute.js';
import { completion, dayAt, fact, recomputeInput } from './fact-builders.js';

const PARTNER_1 = { partnerTenantId: 'partner-1' };
const PARTNER_2 = { partnerTenantId: 'partner-2' };

/** A supplier on a tier with bulk upload and API access, seen on day 70 of its journey. */
export const WORKED_EXAMPLE: RecomputeInput = recomputeInput({
  companyId: 'acme-supplier',
  profile: 'SUPPLIER',
  capabilities: ['BULK_UPLOAD', 'API_ACCESS'],
  previousBand: 'HEALTHY',
  version: 41,
  now: dayAt(70),
  manualCompletions: [completion('kickoff_call_held', 1, 'crm:call-123')],
  facts: [
    fact('company.profile_completed', 0),
    fact('user.invited', 1, { userId: 'u1' }),
    fact('user.joined', 2, { userId: 'u1' }),
    fact('product.created', 3, { productId: 'p1' }),
    fact('product.created', 4, { productId: 'p2' }),
    fact('product.created', 5, { productId: 'p3' }),
    fact('product_version.published', 6, { productId: 'p1' }),
    fact('connection.invited', 8, { connectionId: 'c1' }, { data: PARTNER_1 }),
    fact('connection.accepted', 9, { connectionId: 'c1' }, { data: PARTNER_1 }),
    fact('connection.invited', 10, { connectionId: 'c2' }, { data: PARTNER_2 }),
    fact('connection.accepted', 12, { connectionId: 'c2' }, { data: PARTNER_2 }),
    fact('import.completed', 15, { importId: 'imp1' }),
    fact('connection.invited', 20, { connectionId: 'c3' }),
    fact('product.viewed', 50, { productId: 'p1' }, { data: { viewerTenantId: 'partner-1' } }),
    fact('data_request.sent', 58, { requestId: 'r1', connectionId: 'c1' }),
    fact('data_request.answered', 60, { requestId: 'r1', connectionId: 'c1' }),
    fact('product.updated', 62, { productId: 'p2' }),
    fact('import.completed', 66, { importId: 'imp2' }),
    fact('import.failed', 67, { importId: 'imp3' }),
  ],
});
