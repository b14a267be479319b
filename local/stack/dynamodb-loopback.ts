import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The system property that carries the port into the configuration below. */
export const PORT_PROPERTY = 'geohub.dynamodb.port';

/**
 * DynamoDB Local 1.25 has no host option: its Jetty server is built with a port alone, which
 * binds every interface, so anyone on the laptop's network could reach the ledger's Java.
 * Jetty's own XML configuration (jetty-xml is on the jar's class path) builds the server as
 * DynamoDB Local's main does, sets its one connector's host to 127.0.0.1 before it starts, and
 * starts it: the real fix without a compiled class of ours. No `-sharedDb` (dynamodb-java.ts).
 */
const CONFIGURATION = `<?xml version="1.0"?>
<!DOCTYPE Configure PUBLIC "-//Jetty//Configure//EN" "http://www.eclipse.org/jetty/configure_9_3.dtd">
<Configure class="java.util.ArrayList">
  <Call id="ddb" class="com.amazonaws.services.dynamodbv2.local.main.ServerRunner" name="createServerFromCommandLineArgs">
    <Arg>
      <Array type="java.lang.String">
        <Item>-inMemory</Item>
        <Item>-port</Item>
        <Item><SystemProperty name="${PORT_PROPERTY}"/></Item>
        <Item>-disableTelemetry</Item>
      </Array>
    </Arg>
  </Call>
  <Call class="java.lang.Class" name="forName">
    <Arg>com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer</Arg>
    <Call id="serverField" name="getDeclaredField"><Arg>server</Arg></Call>
  </Call>
  <Ref refid="serverField"><Call name="setAccessible"><Arg type="boolean">true</Arg></Call></Ref>
  <Ref refid="serverField"><Call id="jetty" name="get"><Arg><Ref refid="ddb"/></Arg></Call></Ref>
  <Ref refid="jetty"><Call id="connectors" name="getConnectors"/></Ref>
  <Call id="connector" class="java.lang.reflect.Array" name="get">
    <Arg><Ref refid="connectors"/></Arg>
    <Arg type="int">0</Arg>
  </Call>
  <Ref refid="connector"><Set name="host">127.0.0.1</Set></Ref>
  <Ref refid="ddb"><Call name="start"/></Ref>
</Configure>
`;

/** Writes the configuration into `dir` (the stack's scratch) and returns its path. */
export function writeLoopbackConfiguration(dir: string): string {
  const file = join(dir, 'dynamodb-loopback.xml');
  writeFileSync(file, CONFIGURATION, { mode: 0o600 });
  return file;
}
