"""A tiny, randomly initialised Llama-architecture chat model built inside the tests.

Real transformers classes (LlamaForCausalLM, a byte-level BPE PreTrainedTokenizerFast with
a ChatML chat template), saved to a folder so that it loads through the same path as any
local model: unit tests exercise the real scoring code without downloading anything.

Loaded by ``tests/conftest.py`` only; tests take the ``build_tiny_model``, ``tiny_dir`` and
``tiny_corpus`` fixtures.
"""

from __future__ import annotations

from pathlib import Path

CHATML = ("{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\n' + m['content'] + "
          "'<|im_end|>\n' }}{% endfor %}{% if add_generation_prompt %}"
          "{{ '<|im_start|>assistant\n' }}{% endif %}")

CORPUS = [
    "for endpoint('guests') block service('file transfer')",
    "define intent i1: from endpoint('a') to endpoint('b') set bandwidth('max', '4', 'mbps')",
    "Guests are not allowed to use file transfer services",
    "You will receive two sentences A and B. Do these two sentences express the same "
    "network policy? Answer with only one word Yes or No.",
    "Please provide the data for me to evaluate.",
    "The network firewall does not block H.323 video conferencing",
    "Students have a download quota of 5000 MB per hour and an upload quota of 2000 MB",
    "Did P2 address the instruction I? Yes No oui non P1 P2",
] * 20


def build_tiny_model(folder: Path, *, seed: int = 0, layers: int = 2, hidden: int = 64) -> Path:
    """Write a tiny random chat model (config, weights, tokenizer) to ``folder``."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    folder.mkdir(parents=True, exist_ok=True)
    specials = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=600, special_tokens=specials,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    bpe.train_from_iterator(CORPUS, trainer)
    tok = PreTrainedTokenizerFast(tokenizer_object=bpe, bos_token="<|im_start|>",
                                  eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                  model_max_length=2048)
    tok.add_tokens(["Yes", "No"])  # the answer words must be single tokens
    tok.chat_template = CHATML
    tok.save_pretrained(folder)

    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=len(tok), hidden_size=hidden, intermediate_size=2 * hidden,
                         num_hidden_layers=layers, num_attention_heads=4, num_key_value_heads=2,
                         max_position_embeddings=2048, tie_word_embeddings=True,
                         pad_token_id=tok.pad_token_id, eos_token_id=tok.eos_token_id,
                         bos_token_id=tok.bos_token_id)
    model = LlamaForCausalLM(config)
    with torch.no_grad():  # spread the logits so that scores differ visibly between pairs
        model.model.embed_tokens.weight.normal_(0, 1.0)
    model.save_pretrained(folder)
    return folder
