/** Account id of the local stack's fake ARNs: such an execution exists in no AWS console. */
const LOCAL_ACCOUNT = '000000000000';
/** A standard-workflow execution ARN in the commercial partition (the console URL below is its). */
const EXECUTION_ARN =
  /^arn:aws:states:([a-z]{2}(?:-[a-z]+)+-\d):(\d{12}):execution:[\w.-]{1,80}:[\w.-]{1,80}$/;

/** The Step Functions console page of a deployed run's execution; undefined for a local one. */
export function stepFunctionsConsoleUrl(executionArn) {
  const match = typeof executionArn === 'string' ? EXECUTION_ARN.exec(executionArn) : null;
  if (!match || match[2] === LOCAL_ACCOUNT) return undefined;
  const region = match[1];
  return `https://${region}.console.aws.amazon.com/states/home?region=${region}#/v2/executions/details/${executionArn}`;
}
