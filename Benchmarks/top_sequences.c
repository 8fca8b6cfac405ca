/* The C pass that Benchmarks/analyze.sh times fetcher against: one thread, the log mapped
 * with mmap, clients, pages and three-page sequences each in an open-addressing table of
 * ids. It reads lines as Benchmarks/reference_analyze.py does (the client is the first field,
 * the page the second word between the first two quotes) and prints the top 10 sequences as
 * `count,page1,page2,page3`, ties in the pages' byte order, for the script to compare.
 *
 * Build: cc -O2 -o top_sequences Benchmarks/top_sequences.c
 * Usage: top_sequences LOG
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define LENGTH 3

static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

/* Eight bytes at a time, the last word overlapping the one before (as fetcher's hash). */
static uint64_t hash_bytes(const char *bytes, size_t count) {
  uint64_t h = count * 0x9e3779b97f4a7c15ULL, word, last = 0;
  uint32_t low, high;
  if (count >= 8) {
    size_t offset = 0;
    for (; offset + 8 < count; offset += 8) {
      memcpy(&word, bytes + offset, 8);
      h = (h ^ word) * 0x9e3779b97f4a7c15ULL;
      h ^= h >> 31;
    }
    memcpy(&last, bytes + count - 8, 8);
  } else if (count >= 4) {
    memcpy(&low, bytes, 4);
    memcpy(&high, bytes + count - 4, 4);
    last = low | (uint64_t)high << 32;
  } else if (count > 0) {
    last = (unsigned char)bytes[0] | (uint64_t)(unsigned char)bytes[count / 2] << 8 |
           (uint64_t)(unsigned char)bytes[count - 1] << 16;
  }
  return mix(h ^ last);
}

static void *grow_zeroed(size_t count, size_t size) {
  void *memory = calloc(count, size);
  if (!memory) {
    perror("calloc");
    exit(1);
  }
  return memory;
}

/* Strings to dense ids. A slot holds the string's hash and id, so a lookup compares bytes
 * (copied to `bytes`, not left in the log) only when the hashes agree. */
typedef struct {
  uint64_t hash;
  int32_t id; /* -1 when empty */
} Slot;

typedef struct {
  Slot *slots;
  char *bytes;
  size_t *starts; /* per id, its offset in `bytes`; one more at the end */
  size_t count, capacity, used, room;
} Interner;

static void interner_init(Interner *t) {
  t->capacity = 1 << 16;
  t->count = t->used = 0;
  t->slots = malloc(t->capacity * sizeof *t->slots);
  memset(t->slots, 0xff, t->capacity * sizeof *t->slots);
  t->room = 1 << 20;
  t->bytes = malloc(t->room);
  t->starts = malloc((t->capacity + 1) * sizeof *t->starts);
  t->starts[0] = 0;
  if (!t->slots || !t->bytes || !t->starts) {
    perror("malloc");
    exit(1);
  }
}

static const char *interned(const Interner *t, int32_t id) { return t->bytes + t->starts[id]; }
static size_t interned_length(const Interner *t, int32_t id) {
  return t->starts[id + 1] - t->starts[id];
}

static int32_t intern(Interner *t, const char *s, size_t n) {
  uint64_t hash = hash_bytes(s, n);
  size_t mask = t->capacity - 1, slot = hash & mask;
  for (;; slot = (slot + 1) & mask) {
    Slot *entry = &t->slots[slot];
    if (entry->id < 0) break;
    if (entry->hash == hash && interned_length(t, entry->id) == n &&
        memcmp(interned(t, entry->id), s, n) == 0)
      return entry->id;
  }
  int32_t id = (int32_t)t->count++;
  while (t->used + n > t->room) t->bytes = realloc(t->bytes, t->room *= 2);
  memcpy(t->bytes + t->used, s, n);
  t->used += n;
  t->starts[id + 1] = t->used;
  t->slots[slot] = (Slot){hash, id};
  if (t->count * 2 > t->capacity) {
    size_t capacity = t->capacity * 2;
    Slot *slots = malloc(capacity * sizeof *slots);
    memset(slots, 0xff, capacity * sizeof *slots);
    for (size_t i = 0; i < t->capacity; i++) {
      if (t->slots[i].id < 0) continue;
      size_t to = t->slots[i].hash & (capacity - 1);
      while (slots[to].id >= 0) to = (to + 1) & (capacity - 1);
      slots[to] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->capacity = capacity;
    t->starts = realloc(t->starts, (capacity + 1) * sizeof *t->starts);
  }
  return id;
}

/* Sequences of LENGTH page ids and their counts: one slot of LENGTH + 1 words each. */
typedef struct {
  int32_t *words;
  size_t count, capacity;
} Sequences;

static uint64_t hash_ids(const int32_t *ids) {
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (int i = 0; i < LENGTH; i++) h = mix(h ^ (uint32_t)ids[i]);
  return h;
}

/* Puts a sequence not in the table (while growing it) into its first free slot. */
static void sequences_put(int32_t *words, size_t mask, const int32_t *ids, int32_t amount) {
  size_t slot = hash_ids(ids) & mask;
  while (words[slot * (LENGTH + 1) + LENGTH]) slot = (slot + 1) & mask;
  memcpy(words + slot * (LENGTH + 1), ids, LENGTH * sizeof *ids);
  words[slot * (LENGTH + 1) + LENGTH] = amount;
}

static void sequences_add(Sequences *t, const int32_t *ids) {
  size_t mask = t->capacity - 1;
  size_t slot = hash_ids(ids) & mask;
  for (;; slot = (slot + 1) & mask) {
    int32_t *entry = t->words + slot * (LENGTH + 1);
    if (entry[LENGTH] == 0) {
      memcpy(entry, ids, LENGTH * sizeof *ids);
      entry[LENGTH] = 1;
      break;
    }
    if (memcmp(entry, ids, LENGTH * sizeof *ids) == 0) {
      entry[LENGTH]++;
      return;
    }
  }
  if (++t->count * 10 > t->capacity * 7) {
    size_t capacity = t->capacity * 2;
    int32_t *words = grow_zeroed(capacity * (LENGTH + 1), sizeof *words);
    for (size_t i = 0; i < t->capacity; i++) {
      int32_t *entry = t->words + i * (LENGTH + 1);
      if (entry[LENGTH]) sequences_put(words, capacity - 1, entry, entry[LENGTH]);
    }
    free(t->words);
    t->words = words;
    t->capacity = capacity;
  }
}

static Interner pages;

static int compare_pages(int32_t a, int32_t b) {
  size_t na = interned_length(&pages, a), nb = interned_length(&pages, b);
  int order = memcmp(interned(&pages, a), interned(&pages, b), na < nb ? na : nb);
  if (order) return order;
  return (na > nb) - (na < nb);
}

/* Whether sequence a ranks before b: the higher count, then the pages in byte order. */
static int ranks_before(const int32_t *a, const int32_t *b) {
  if (a[LENGTH] != b[LENGTH]) return a[LENGTH] > b[LENGTH];
  for (int i = 0; i < LENGTH; i++) {
    int order = compare_pages(a[i], b[i]);
    if (order) return order < 0;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s LOG\n", argv[0]);
    return 2;
  }
  int fd = open(argv[1], O_RDONLY);
  struct stat info;
  if (fd < 0 || fstat(fd, &info) != 0) {
    perror(argv[1]);
    return 1;
  }
  size_t size = (size_t)info.st_size;
  const char *log = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : "";
  if (log == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  madvise((void *)log, size, MADV_SEQUENTIAL);

  Interner clients;
  interner_init(&clients);
  interner_init(&pages);
  size_t recent_capacity = 1 << 16;
  int32_t *recent = malloc(recent_capacity * LENGTH * sizeof *recent); /* count, then pages */
  Sequences sequences = {grow_zeroed(16 * (LENGTH + 1), sizeof(int32_t)), 0, 16};

  const char *end = log + size;
  for (const char *line = log; line < end;) {
    const char *newline = memchr(line, '\n', (size_t)(end - line));
    if (!newline) newline = end;
    const char *space = memchr(line, ' ', (size_t)(newline - line));
    const char *quote = memchr(line, '"', (size_t)(newline - line));
    const char *close = quote ? memchr(quote + 1, '"', (size_t)(newline - quote - 1)) : NULL;
    if (space && close) {
      /* The request's second word. */
      const char *word = quote + 1;
      while (word < close && *word == ' ') word++;
      while (word < close && *word != ' ') word++;
      while (word < close && *word == ' ') word++;
      const char *page_end = word;
      while (page_end < close && *page_end != ' ') page_end++;
      if (page_end > word) {
        size_t known = clients.count;
        size_t client = (size_t)intern(&clients, line, (size_t)(space - line));
        int32_t page = intern(&pages, word, (size_t)(page_end - word));
        if (client >= recent_capacity) {
          recent_capacity *= 2;
          recent = realloc(recent, recent_capacity * LENGTH * sizeof *recent);
        }
        int32_t *mine = recent + client * LENGTH;
        if (client == known) mine[0] = 0; /* new */
        if (mine[0] < LENGTH - 1) {
          mine[1 + mine[0]++] = page;
        } else {
          int32_t ids[LENGTH] = {mine[1], mine[2], page};
          sequences_add(&sequences, ids);
          mine[1] = mine[2];
          mine[2] = page;
        }
      }
    }
    line = newline + 1;
  }

  /* The top 10, by selection: ten passes over the table cost less than sorting it. */
  int32_t top[10][LENGTH + 1];
  int found = 0;
  for (size_t i = 0; i < sequences.capacity; i++) {
    int32_t *entry = sequences.words + i * (LENGTH + 1);
    if (!entry[LENGTH]) continue;
    int at = found < 10 ? found++ : 10;
    while (at > 0 && ranks_before(entry, top[at - 1])) {
      if (at < 10) memcpy(top[at], top[at - 1], sizeof top[at]);
      at--;
    }
    if (at < 10) memcpy(top[at], entry, sizeof top[at]);
  }
  for (int i = 0; i < found; i++) {
    printf("%d", top[i][LENGTH]);
    for (int p = 0; p < LENGTH; p++) {
      printf(",%.*s", (int)interned_length(&pages, top[i][p]), interned(&pages, top[i][p]));
    }
    printf("\n");
  }
  return 0;
}
