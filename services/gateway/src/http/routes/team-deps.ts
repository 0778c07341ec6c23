import type { ServiceClients } from '../../clients.js';
import { managers } from '../auth/access.js';
import { routesOf } from './define-route.js';

/** What the routes of a tenant's team and its API access are built from: the service clients. */
export interface ClientsDeps {
  readonly clients: ServiceClients;
}

/** `defineRoute` of the groups that need only the service clients. */
export const clientsRoute = routesOf<ClientsDeps>();

/** Who may manage the tenant's team: an OWNER or ADMIN (identity checks again, and who may change whom). */
export const TEAM = "the tenant's team: who may sign in and with which role";
export const manageTeam = (more?: string) => managers(more ? `${TEAM}; ${more}` : TEAM);
