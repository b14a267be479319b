/**
 * Readiness that knows which service answered: a port another process took in the meantime
 * (or another stand-in) must not pass for DynamoDB Local. Asks ListTables with the stack's
 * credentials' key id and accepts only a DynamoDB JSON answer.
 */
export async function answersAsDynamoDb(endpoint: string, keyId: string): Promise<boolean> {
  try {
    const response = await dynamoDbRequest(endpoint, keyId, 'ListTables', {}, 2_000);
    const body = (await response.json().catch(() => undefined)) as
      | { TableNames?: unknown; __type?: unknown }
      | undefined;
    return Array.isArray(body?.TableNames) || /dynamodb/i.test(String(body?.__type ?? ''));
  } catch {
    return false;
  }
}

/**
 * One DynamoDB JSON request to DynamoDB Local, which reads only the key id of a SigV4 header (its
 * database is the key id's): no signature to compute for a probe or the archive's training.
 */
export function dynamoDbRequest(
  endpoint: string,
  keyId: string,
  target: string,
  body: unknown,
  timeoutMs: number,
): Promise<Response> {
  return fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `DynamoDB_20120810.${target}`,
      authorization: `AWS4-HMAC-SHA256 Credential=${keyId}/20200101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
}
