// The member's real network, three levels deep, laid out by d3-hierarchy's tidy tree. Other
// members are anonymous nodes (their level only): names are never shown to other members.
import type { NetworkStats } from '@crw/core';
import { hierarchy, tree } from 'd3-hierarchy';
import styles from './community.module.css';

interface Node {
  id: string;
  level: number;
  children: Node[];
}

const MAX_DRAWN = 300;

function buildTree(rootId: string, items: NetworkStats['data']['hierarchy']): { root: Node; hidden: number } {
  const root: Node = { id: rootId, level: 0, children: [] };
  const byId = new Map<string, Node>([[rootId, root]]);
  const sorted = [...items].sort((a, b) => a.level - b.level).slice(0, MAX_DRAWN);
  for (const item of sorted) {
    const node: Node = { id: item.referred_id, level: item.level, children: [] };
    byId.set(item.referred_id, node);
    (byId.get(item.parent_id ?? rootId) ?? root).children.push(node);
  }
  return { root, hidden: items.length - sorted.length };
}

export function NetworkGraph({ rootId, network }: { rootId: string; network: NetworkStats }) {
  const { root, hidden } = buildTree(rootId, network.data.hierarchy);
  const width = 640;
  const height = 280;
  const laidOut = tree<Node>().size([width - 60, height - 70])(hierarchy(root));
  const nodes = laidOut.descendants();
  const links = laidOut.links();
  const summary = `Your network: ${network.data.level_counts.level1} at level 1, ${network.data.level_counts.level2} at level 2, ${network.data.level_counts.level3} at level 3.`;
  return (
    <figure className={styles.graph}>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary}>
        <g transform="translate(30 35)">
          {links.map((link) => (
            <line key={`${link.source.data.id}-${link.target.data.id}`} className={styles.edge} x1={link.source.x} y1={link.source.y} x2={link.target.x} y2={link.target.y} />
          ))}
          {nodes.map((node) => (
            <g key={node.data.id} transform={`translate(${node.x} ${node.y})`}>
              <circle className={styles[`node${node.data.level}`]} r={node.data.level === 0 ? 18 : 11} />
              <text className={styles.nodeLabel} textAnchor="middle" dy="0.35em">
                {node.data.level === 0 ? 'You' : `L${node.data.level}`}
              </text>
            </g>
          ))}
        </g>
      </svg>
      <figcaption className={styles.caption}>
        {network.data.total_network_size === 0 ? 'Your network appears here as friends join with your link.' : summary}
        {hidden > 0 ? ` (${hidden} more not drawn.)` : ''}
      </figcaption>
    </figure>
  );
}
