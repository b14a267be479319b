// biome-ignore-all lint/suspicious/noTemplateCurlyInString: CloudFormation Fn::Sub strings, resolved by local/iam/intrinsics.ts
import type { Statement } from './template-roles.js';

/**
 * What the operator (the CLI and the page; a person deploying with docs/deploy.md) may do, in
 * the template's terms so that it resolves like the roles. docs/deploy.md ("Operator
 * permissions") prints the same statements for an IAM user or SSO permission set.
 */
export const OPERATOR_STATEMENTS: readonly Statement[] = [
  // Uploads (multipart, with a .job.json sidecar) start runs; a collection's members go first
  // under collections/, which starts nothing (lib/collection).
  {
    Effect: 'Allow',
    Action: ['s3:PutObject', 's3:AbortMultipartUpload'],
    Resource: [
      { 'Fn::Sub': '${DataBucket.Arn}/incoming/*' },
      { 'Fn::Sub': '${DataBucket.Arn}/collections/*' },
    ],
  },
  // Outputs: tiles, mosaic, STAC and summary, listed and read.
  {
    Effect: 'Allow',
    Action: 's3:GetObject',
    Resource: [{ 'Fn::Sub': '${DataBucket.Arn}/tiles/*' }, { 'Fn::Sub': '${DataBucket.Arn}/runs/*' }],
  },
  { Effect: 'Allow', Action: 's3:ListBucket', Resource: { 'Fn::GetAtt': ['DataBucket', 'Arn'] } },
  // Runs and their progress (geohub status, the page).
  {
    Effect: 'Allow',
    Action: ['dynamodb:GetItem', 'dynamodb:Query'],
    Resource: [{ 'Fn::GetAtt': ['LedgerTable', 'Arn'] }, { 'Fn::Sub': '${LedgerTable.Arn}/index/runs' }],
  },
  // A run with no running execution is cancelled on its record.
  { Effect: 'Allow', Action: 'dynamodb:UpdateItem', Resource: { 'Fn::GetAtt': ['LedgerTable', 'Arn'] } },
  // The queues' depths (the page's workers panel).
  {
    Effect: 'Allow',
    Action: 'sqs:GetQueueAttributes',
    Resource: [{ 'Fn::GetAtt': ['WorkQueue', 'Arn'] }, { 'Fn::GetAtt': ['DeadLetterQueue', 'Arn'] }],
  },
  // Cancel: the run's execution stopped.
  {
    Effect: 'Allow',
    Action: ['states:DescribeExecution', 'states:StopExecution'],
    Resource: {
      'Fn::Sub':
        'arn:${AWS::Partition}:states:${AWS::Region}:${AWS::AccountId}:execution:${GeohubStateMachine.Name}:*',
    },
  },
  // geohub redrive runs the redrive function.
  {
    Effect: 'Allow',
    Action: 'lambda:InvokeFunction',
    Resource: { 'Fn::GetAtt': ['RedriveLambdaFunction', 'Arn'] },
  },
];
