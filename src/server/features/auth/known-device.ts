// A browser where an account signed in before: a "known device" (decision 003). A signed, httpOnly
// cookie, sent only with sign-ins, holds a random device id and the accounts that signed in there
// (the latest five). Failed sign-ins from it count for that browser alone (throttle.ts), so failures
// made anywhere else never lock the parent out of it. It grants nothing else: no session, no access.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Sessions } from '../../http/sessions';

export const DEVICE_COOKIE = 'familystar.device';
const DEVICE_COOKIE_PATH = '/api/login';
const DEVICE_MAX_AGE_S = 365 * 24 * 60 * 60;
const ACCOUNTS_PER_DEVICE = 5;
const VALUE = /^([A-Za-z0-9_-]{22}):(\d{1,10}(?:,\d{1,10}){0,4})$/;

interface KnownDevice {
  deviceId: string;
  userIds: number[];
}

function deviceOf(request: FastifyRequest): KnownDevice | undefined {
  const raw = request.cookies[DEVICE_COOKIE];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  const match = unsigned.valid && unsigned.value ? VALUE.exec(unsigned.value) : null;
  return match ? { deviceId: match[1]!, userIds: match[2]!.split(',').map(Number) } : undefined;
}

/** The browser's device id when the account `userId` signed in on it before (a correctly signed cookie). */
export function knownDeviceFor(request: FastifyRequest, userId: number | undefined): { userId: number; deviceId: string } | undefined {
  const device = deviceOf(request);
  return device && userId !== undefined && device.userIds.includes(userId) ? { userId, deviceId: device.deviceId } : undefined;
}

/** After a sign-in that worked (or a new account): this browser becomes a known device of the account. */
export function rememberDevice(sessions: Sessions, request: FastifyRequest, reply: FastifyReply, userId: number): void {
  const device = deviceOf(request);
  const deviceId = device?.deviceId ?? randomBytes(16).toString('base64url');
  const userIds = [userId, ...(device?.userIds ?? []).filter((id) => id !== userId)].slice(0, ACCOUNTS_PER_DEVICE);
  reply.setCookie(DEVICE_COOKIE, `${deviceId}:${userIds.join(',')}`, {
    ...sessions.cookieOptions(request),
    path: DEVICE_COOKIE_PATH,
    maxAge: DEVICE_MAX_AGE_S,
  });
}
