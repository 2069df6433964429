// People (spec 01 §7): list, read, add, rename and delete, each for the signed-in owner only.
import type { FastifyInstance } from 'fastify';
import { personSchema } from '../../../shared/media-rules';
import { badRequest, parseId, parseInput } from '../../http/errors';
import { requireUser } from '../../http/guards';
import type { RouteDeps } from '../../http/route-deps';
import { idField, ownPerson, requireSelf } from './access';
import { createPerson, deletePerson, listPeople, toPerson, updatePerson } from './service';

const createPersonSchema = personSchema.extend({ userId: idField.nullish() });
const updatePersonSchema = personSchema.partial();

export async function peopleRoutes(app: FastifyInstance, { db, sessions, storage }: RouteDeps) {
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

  app.delete('/people/:id', async (request, reply) => {
    const user = await requireUser(sessions, request);
    const person = await ownPerson(db, user, parseId((request.params as { id: string }).id));
    await deletePerson(db, storage, person.id);
    return reply.status(204).send();
  });
}

