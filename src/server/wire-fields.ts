/**
 * The service's field formats ("Resources and their fields", conventions 1 and 2), as the server half's schemas
 * and the sandbox's read them: an object id is a UUID, a date-time an ISO 8601 string with its offset.
 */
import * as z from 'zod';

/** An object's id: a UUID. */
export const id = () => z.uuid();
/** A date-time: ISO 8601 with an offset (`2024-05-01T12:00:00.000000+00:00`). */
export const dateTime = () => z.iso.datetime({ offset: true });
