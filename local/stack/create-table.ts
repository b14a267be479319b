import { CreateTableCommand, type DynamoDBClient, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import type { TableDefinition } from './resources.js';

/** Creates the ledger's table as serverless.yml defines it (under another name when given). */
export async function createTable(
  dynamodb: DynamoDBClient,
  table: TableDefinition,
  name: string = table.TableName,
): Promise<string> {
  const created = await dynamodb.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: table.BillingMode as 'PAY_PER_REQUEST',
      AttributeDefinitions: [...table.AttributeDefinitions],
      KeySchema: [...table.KeySchema],
      GlobalSecondaryIndexes: table.GlobalSecondaryIndexes.map((index) => ({
        IndexName: index.IndexName,
        KeySchema: [...index.KeySchema],
        Projection: { ProjectionType: index.Projection.ProjectionType as 'ALL' },
      })),
    }),
  );
  // DynamoDB Local answers ACTIVE at once; a table still CREATING (as on AWS) is waited for. The
  // waiter's DescribeTable costs a tenth of a second of every start on a cold Java otherwise.
  const description = created.TableDescription;
  const active =
    description?.TableStatus === 'ACTIVE' &&
    (description.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === 'ACTIVE');
  if (!active) await waitUntilTableExists({ client: dynamodb, maxWaitTime: 30 }, { TableName: name });
  return name;
}
