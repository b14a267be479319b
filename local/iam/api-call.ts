/** The services whose calls geohub makes (their IAM service prefixes). */
export type IamService = 's3' | 'dynamodb' | 'sqs' | 'states' | 'ecs' | 'lambda' | 'cloudformation';

/** One API call as the request carried it: service, operation (the API's name) and parameters. */
export interface ApiCall {
  readonly service: IamService;
  readonly operation: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** One IAM action a call needs, on one resource ARN: a call is allowed only if all of its are. */
export interface Need {
  readonly action: string;
  readonly resource: string;
}
