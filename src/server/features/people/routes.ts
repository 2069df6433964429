// People (spec 01 §7): list, read, add, rename and delete, each for the signed-in owner only.
import type { FastifyInstance } from 'fastify';
import type { ConsentWithdrawal } from '../../../shared/api-types';
import { personSchema } from '../../../shared/media-rules';
import { consentSchema } from '../../../shared/privacy';
import { badRequest, parseId, parseInput } from '../../http/errors';
import { requireUser } from '../../http/guards';
import type { RouteDeps } from '../../http/route-deps';
import { idField, ownPerson, requireSelf } from './access';
import { giveConsent, withdrawConsent } from './consent';
import { createPerson, deletePerson, listPeople, toPerson, updatePerson } from './service';

const createPersonSchema = personSchema.extend({ userId: idField.nullish() });
const updatePersonSchema = personSchema.partial();

export async function peopleRoutes(app: FastifyInstance, { db, sessions, storage, queue }: RouteDeps) {
  app.get('/users/:userId/people', async (request) => {
    const user = await requireUser(sessions, request);
    requireSelf(user, parseId((request.params as { userId: string }).userId));
    return (await listPeople(db, user.id)).map(toPerson);
  });

  app.get('/people/:id', async (request) => {
    const user = await requireUser(sessions, request);
    return toPerson(await ownPerson(db, user, parseId((request.params as { id: string }).id)));
  });

  app.post('/people', async (request, reply) => {
    const user = await requireUser(sessions, request);
    const input = parseInput(createPersonSchema, request.body);
    requireSelf(user, input.userId);
    return reply.status(201).send(toPerson(await createPerson(db, user, input)));
  });

  app.patch('/people/:id', async (request) => {
    const user = await requireUser(sessions, request);
    const person = await ownPerson(db, user, parseId((request.params as { id: string }).id));
    const changes = parseInput(updatePersonSchema, request.body);
    if (changes.name === undefined && changes.relationship === undefined) throw badRequest('Nothing to update');
    return toPerson(await updatePerson(db, person.id, changes));
  });

  /** POST /api/people/:id/consent { basis }: records the consent (decision 016); the answer is the person. */
  app.post('/people/:id/consent', async (request, reply) => {
    const user = await requireUser(sessions, request);
    const person = await ownPerson(db, user, parseId((request.params as { id: string }).id));
    const { basis } = parseInput(consentSchema, request.body);
    return reply.status(201).send(toPerson(await giveConsent(db, user, person, basis)));
  });

  /** DELETE /api/people/:id/consent: withdraws it, deleting their faces, voices, clips and the videos made with them. */
  app.delete('/people/:id/consent', async (request): Promise<ConsentWithdrawal> => {
    const user = await requireUser(sessions, request);
    const person = await ownPerson(db, user, parseId((request.params as { id: string }).id));
    const { person: row, deleted } = await withdrawConsent({ db, storage, queue }, user, person);
    return { person: toPerson(row), deleted };
  });

  app.delete('/people/:id', async (request, reply) => {
    const user = await requireUser(sessions, request);
    const person = await ownPerson(db, user, parseId((request.params as { id: string }).id));
    await deletePerson(db, storage, user, person.id);
    return reply.status(204).send();
  });
}

