import styles from './phrase-words.module.css';

/** The 12 words of a recovery phrase, numbered, in reading order. */
export function PhraseWords({ phrase }: { phrase: string }) {
  return (
    <ol className={styles.grid} aria-label="Recovery phrase">
      {phrase.split(' ').map((word, i) => (
        <li key={i} className={styles.word}>
          <span className={styles.index}>{i + 1}.</span>
          {word}
        </li>
      ))}
    </ol>
  );
}
