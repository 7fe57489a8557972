/** A binary max-heap: the lazy greedy selection's queue of candidates by their best possible value. */

/** A max-heap ordered by `before(left, right)`: true when `left` must come out first. */
export class MaxHeap<Item> {
  private readonly items: Item[] = []
  private readonly before: (left: Item, right: Item) => boolean

  constructor(before: (left: Item, right: Item) => boolean) {
    this.before = before
  }

  /** How many items are queued. */
  get size(): number {
    return this.items.length
  }

  /** Queues `item`. */
  push(item: Item): void {
    const items = this.items
    items.push(item)
    let index = items.length - 1
    while (index > 0) {
      const parent = (index - 1) >> 1
      if (!this.before(items[index] as Item, items[parent] as Item)) break
      this.swap(index, parent)
      index = parent
    }
  }

  /** Removes and returns the first item, or undefined when empty. */
  pop(): Item | undefined {
    const items = this.items
    const top = items[0]
    const last = items.pop()
    if (items.length === 0 || last === undefined) return top
    items[0] = last
    let index = 0
    for (;;) {
      const left = 2 * index + 1
      const right = left + 1
      let first = index
      if (left < items.length && this.before(items[left] as Item, items[first] as Item))
        first = left
      if (right < items.length && this.before(items[right] as Item, items[first] as Item))
        first = right
      if (first === index) break
      this.swap(index, first)
      index = first
    }
    return top
  }

  private swap(left: number, right: number): void {
    const items = this.items
    const item = items[left] as Item
    items[left] = items[right] as Item
    items[right] = item
  }
}
