import { z } from 'zod';
/** One entry of `error.error_codes`: clients branch on `error_code`. */
export declare const ErrorCodeSchema: z.ZodObject<{
    error_code: z.ZodString;
    message: z.ZodString;
}, z.core.$strip>;
/**
 * The service's error body (spec, "Errors"): `{ error: { status_code, message,
 * type, error_codes } }`. The handlers answer the browser in the same shape
 * (src/server/error-response.ts), so one client-side branch handles both.
 */
export declare const ErrorBodySchema: z.ZodObject<{
    error: z.ZodObject<{
        status_code: z.ZodInt;
        message: z.ZodString;
        type: z.ZodString;
        error_codes: z.ZodArray<z.ZodObject<{
            error_code: z.ZodString;
            message: z.ZodString;
        }, z.core.$strip>>;
    }, z.core.$strip>;
}, z.core.$strip>;
/** One entry of `error.error_codes`: `{ error_code, message }`. */
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;
/** The service's error body, which the handlers answer the browser with too. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
