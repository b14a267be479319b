/** One HTTP answer of a control-plane stand-in, in its service's protocol. */
export interface StandInAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A JSON 1.0 answer (Step Functions): an error names its type in `__type`, as the SDK reads it. */
export const json10 = (status: number, body: unknown, requestId: string): StandInAnswer => ({
  status,
  headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': requestId },
  body: JSON.stringify(body),
});
