import { randomUUID } from 'node:crypto';
import type { StandInAnswer } from './stand-in-answer.js';

/** A function the stand-in can run: its payload in, its result out (JSON). */
export type LocalFunction = (payload: unknown) => Promise<unknown>;

const lambdaError = (status: number, type: string, message: string): StandInAnswer => ({
  status,
  headers: { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID(), 'x-amzn-errortype': type },
  body: JSON.stringify({ Type: 'User', Message: message }),
});

/**
 * Lambda's Invoke (REST-JSON, RequestResponse) of the functions an operator may call, by name or
 * ARN. A function that throws answers 200 with `X-Amz-Function-Error: Unhandled` and the error
 * as its payload, as Lambda does.
 */
export async function invokeFunction(
  functions: Readonly<Record<string, LocalFunction>>,
  name: string,
  body: Buffer,
): Promise<StandInAnswer> {
  const fn = functions[name] ?? functions[name.split(':').pop() ?? ''];
  if (!fn) return lambdaError(404, 'ResourceNotFoundException', `Function not found: ${name}`);
  let payload: unknown;
  try {
    payload = body.length ? JSON.parse(body.toString('utf8')) : {};
  } catch {
    return lambdaError(400, 'InvalidRequestContentException', 'Could not parse request body into json');
  }
  const headers = {
    'content-type': 'application/json',
    'x-amzn-requestid': randomUUID(),
    'x-amz-executed-version': '$LATEST',
  };
  try {
    return { status: 200, headers, body: JSON.stringify((await fn(payload)) ?? null) };
  } catch (error) {
    const e = error as Error;
    return {
      status: 200,
      headers: { ...headers, 'x-amz-function-error': 'Unhandled' },
      body: JSON.stringify({ errorType: e.name, errorMessage: e.message }),
    };
  }
}
