
/root/.pyenv/versions/3.12.1/lib/libpython3.12.so.1.0:     file format elf64-x86-64


Disassembly of section .text:

00000000002ae9f0 <take_gil>:
  2ae9f0:	push   %r15
  2ae9f2:	push   %r14
  2ae9f4:	push   %r13
  2ae9f6:	push   %r12
  2ae9f8:	push   %rbp
  2ae9f9:	push   %rbx
  2ae9fa:	mov    %rdi,%rbx
  2ae9fd:	sub    $0x38,%rsp
  2aea01:	mov    %rdi,(%rsp)
  2aea05:	call   1099a0 <__errno_location@plt>
  2aea0a:	mov    %rbx,%rdi
  2aea0d:	mov    %rax,0x8(%rsp)
  2aea12:	mov    (%rax),%eax
  2aea14:	mov    %eax,0x18(%rsp)
  2aea18:	call   2d96e0 <_PyThreadState_MustExit>
  2aea1d:	test   %eax,%eax
  2aea1f:	jne    2aeb96 <take_gil+0x1a6>
  2aea25:	mov    (%rsp),%rax
  2aea29:	mov    0x10(%rax),%r15
  2aea2d:	mov    0x180(%r15),%r14
  2aea34:	lea    0x170(%r15),%rax
  2aea3b:	mov    %rax,0x10(%rsp)
  2aea40:	lea    0x50(%r14),%r12
  2aea44:	mov    %r12,%rdi
  2aea47:	call   10af90 <pthread_mutex_lock@plt>
  2aea4c:	mov    %eax,0x1c(%rsp)
  2aea50:	test   %eax,%eax
  2aea52:	jne    2aede4 <take_gil+0x3f4>
  2aea58:	mov    0x10(%r14),%eax
  2aea5c:	lea    0x10(%r14),%rbp
  2aea60:	lea    0x20(%rsp),%rbx
  2aea65:	test   %eax,%eax
  2aea67:	je     2aeb10 <take_gil+0x120>
  2aea6d:	nopl   (%rax)
  2aea70:	mov    0x0(%rbp),%eax
  2aea73:	test   %eax,%eax
  2aea75:	je     2aeb10 <take_gil+0x120>
  2aea7b:	mov    (%r14),%rdi
  2aea7e:	mov    $0x1,%eax
  2aea83:	mov    %rbx,%rsi
  2aea86:	mov    0x18(%r14),%r13
  2aea8a:	test   %rdi,%rdi
  2aea8d:	cmove  %rax,%rdi
  2aea91:	call   2edba0 <_PyThread_cond_after>
  2aea96:	lea    0x20(%r14),%rdi
  2aea9a:	mov    %rbx,%rdx
  2aea9d:	mov    %r12,%rsi
  2aeaa0:	call   107620 <pthread_cond_timedwait@plt>
  2aeaa5:	cmp    $0x6e,%eax
  2aeaa8:	je     2aeac8 <take_gil+0xd8>
  2aeaaa:	test   %eax,%eax
  2aeaac:	je     2aea70 <take_gil+0x80>
  2aeaae:	lea    0x1248c4(%rip),%rsi        # 3d3379 <Py_Version+0x289>
  2aeab5:	lea    0x124a3c(%rip),%rdi        # 3d34f8 <__func__.10>
  2aeabc:	call   1077f0 <_Py_FatalErrorFunc@plt>
  2aeac1:	nopl   0x0(%rax)
  2aeac8:	mov    0x0(%rbp),%eax
  2aeacb:	test   %eax,%eax
  2aeacd:	je     2aea70 <take_gil+0x80>
  2aeacf:	cmp    %r13,0x18(%r14)
  2aead3:	jne    2aea70 <take_gil+0x80>
  2aead5:	mov    (%rsp),%rdi
  2aead9:	call   2d96e0 <_PyThreadState_MustExit>
  2aeade:	test   %eax,%eax
  2aeae0:	jne    2aed58 <take_gil+0x368>
  2aeae6:	movl   $0x1,0x174(%r15)
  2aeaf1:	mov    0x10(%rsp),%rax
  2aeaf6:	movl   $0x1,(%rax)
  2aeafc:	movl   $0x1,0x1c(%rsp)
  2aeb04:	jmp    2aea70 <take_gil+0x80>
  2aeb09:	nopl   0x0(%rax)
  2aeb10:	lea    0xa8(%r14),%rbx
  2aeb17:	mov    %rbx,%rdi
  2aeb1a:	call   10af90 <pthread_mutex_lock@plt>
  2aeb1f:	test   %eax,%eax
  2aeb21:	jne    2aee0a <take_gil+0x41a>
  2aeb27:	movl   $0x1,0x10(%r14)
  2aeb2f:	mov    0x8(%r14),%rax
  2aeb33:	mov    (%rsp),%rcx
  2aeb37:	cmp    %rax,%rcx
  2aeb3a:	je     2aeb45 <take_gil+0x155>
  2aeb3c:	mov    %rcx,0x8(%r14)
  2aeb40:	addq   $0x1,0x18(%r14)
  2aeb45:	lea    0x78(%r14),%rdi
  2aeb49:	call   106c30 <pthread_cond_signal@plt>
  2aeb4e:	test   %eax,%eax
  2aeb50:	jne    2aee1d <take_gil+0x42d>
  2aeb56:	mov    %rbx,%rdi
  2aeb59:	call   10b450 <pthread_mutex_unlock@plt>
  2aeb5e:	test   %eax,%eax
  2aeb60:	jne    2aedf7 <take_gil+0x407>
  2aeb66:	mov    (%rsp),%rbx
  2aeb6a:	mov    %rbx,%rdi
  2aeb6d:	call   2d96e0 <_PyThreadState_MustExit>
  2aeb72:	mov    %eax,%r13d
  2aeb75:	test   %eax,%eax
  2aeb77:	je     2aeba0 <take_gil+0x1b0>
  2aeb79:	mov    %r12,%rdi
  2aeb7c:	call   10b450 <pthread_mutex_unlock@plt>
  2aeb81:	test   %eax,%eax
  2aeb83:	jne    2aec28 <take_gil+0x238>
  2aeb89:	mov    0x10(%rsp),%rdi
  2aeb8e:	mov    %rbx,%rsi
  2aeb91:	call   2ae130 <drop_gil>
  2aeb96:	call   10ac20 <PyThread_exit_thread@plt>
  2aeb9b:	nopl   0x0(%rax,%rax,1)
  2aeba0:	mov    0x174(%r15),%eax
  2aeba7:	test   %eax,%eax
  2aeba9:	je     2aec40 <take_gil+0x250>
  2aebaf:	mov    0x60(%r15),%rbx
  2aebb3:	movl   $0x0,0x174(%r15)
  2aebbe:	mov    0x174(%r15),%eax
  2aebc5:	mov    %eax,0x10(%rsp)
  2aebc9:	mov    0x7d8(%rbx),%eax
  2aebcf:	test   %eax,%eax
  2aebd1:	jne    2aecf3 <take_gil+0x303>
  2aebd7:	mov    0x295122(%rip),%rbp        # 543d00 <_PyRuntime@@Base-0xff640>
  2aebde:	xor    %r14d,%r14d
  2aebe1:	mov    0x1a0(%r15),%eax
  2aebe8:	mov    %eax,0x1c(%rsp)
  2aebec:	call   108710 <PyThread_get_thread_ident@plt>
  2aebf1:	cmp    0x40(%rbp),%rax
  2aebf5:	je     2aed3a <take_gil+0x34a>
  2aebfb:	mov    0x10(%rsp),%eax
  2aebff:	mov    0x1c(%rsp),%ecx
  2aec03:	or     0x1a4(%r15),%eax
  2aec0a:	mov    0x18c(%r15),%edx
  2aec11:	or     %r14d,%eax
  2aec14:	or     %ecx,%eax
  2aec16:	or     %r13d,%eax
  2aec19:	or     %edx,%eax
  2aec1b:	mov    %eax,0x170(%r15)
  2aec22:	jmp    2aec9b <take_gil+0x2ab>
  2aec24:	nopl   0x0(%rax)
  2aec28:	lea    0x124579(%rip),%rsi        # 3d31a8 <Py_Version+0xb8>
  2aec2f:	lea    0x1248c2(%rip),%rdi        # 3d34f8 <__func__.10>
  2aec36:	call   1077f0 <_Py_FatalErrorFunc@plt>
  2aec3b:	nopl   0x0(%rax,%rax,1)
  2aec40:	mov    0x174(%r15),%ebx
  2aec47:	mov    0x2950b2(%rip),%rbp        # 543d00 <_PyRuntime@@Base-0xff640>
  2aec4e:	mov    0x7d8(%rbp),%eax
  2aec54:	test   %eax,%eax
  2aec56:	jne    2aed19 <take_gil+0x329>
  2aec5c:	movl   $0x0,0x10(%rsp)
  2aec64:	mov    0x1a0(%r15),%r14d
  2aec6b:	call   108710 <PyThread_get_thread_ident@plt>
  2aec70:	cmp    0x40(%rbp),%rax
  2aec74:	je     2aecdc <take_gil+0x2ec>
  2aec76:	mov    0x1a4(%r15),%eax
  2aec7d:	mov    0x10(%rsp),%ecx
  2aec81:	mov    0x18c(%r15),%edx
  2aec88:	or     %ebx,%eax
  2aec8a:	or     %ecx,%eax
  2aec8c:	or     %r14d,%eax
  2aec8f:	or     %r13d,%eax
  2aec92:	or     %edx,%eax
  2aec94:	mov    %eax,0x170(%r15)
  2aec9b:	mov    (%rsp),%rax
  2aec9f:	cmpq   $0x0,0x80(%rax)
  2aeca7:	je     2aecb2 <take_gil+0x2c2>
  2aeca9:	mov    0x10(%rax),%rdi
  2aecad:	call   10ad20 <_PyEval_SignalAsyncExc@plt>
  2aecb2:	mov    %r12,%rdi
  2aecb5:	call   10b450 <pthread_mutex_unlock@plt>
  2aecba:	test   %eax,%eax
  2aecbc:	jne    2aec28 <take_gil+0x238>
  2aecc2:	mov    0x8(%rsp),%rax
  2aecc7:	mov    0x18(%rsp),%ecx
  2aeccb:	mov    %ecx,(%rax)
  2aeccd:	add    $0x38,%rsp
  2aecd1:	pop    %rbx
  2aecd2:	pop    %rbp
  2aecd3:	pop    %r12
  2aecd5:	pop    %r13
  2aecd7:	pop    %r14
  2aecd9:	pop    %r15
  2aecdb:	ret
  2aecdc:	cmp    0x30(%rbp),%r15
  2aece0:	jne    2aec76 <take_gil+0x286>
  2aece2:	mov    0x7f0(%rbp),%eax
  2aece8:	xor    %r13d,%r13d
  2aeceb:	test   %eax,%eax
  2aeced:	setne  %r13b
  2aecf1:	jmp    2aec76 <take_gil+0x286>
  2aecf3:	call   108710 <PyThread_get_thread_ident@plt>
  2aecf8:	mov    0x295001(%rip),%rbp        # 543d00 <_PyRuntime@@Base-0xff640>
  2aecff:	cmp    0x40(%rbp),%rax
  2aed03:	jne    2aebde <take_gil+0x1ee>
  2aed09:	xor    %r14d,%r14d
  2aed0c:	cmp    %r15,0x30(%rbp)
  2aed10:	sete   %r14b
  2aed14:	jmp    2aebe1 <take_gil+0x1f1>
  2aed19:	call   108710 <PyThread_get_thread_ident@plt>
  2aed1e:	cmp    0x40(%rbp),%rax
  2aed22:	jne    2aec5c <take_gil+0x26c>
  2aed28:	xor    %eax,%eax
  2aed2a:	cmp    %r15,0x30(%rbp)
  2aed2e:	sete   %al
  2aed31:	mov    %eax,0x10(%rsp)
  2aed35:	jmp    2aec64 <take_gil+0x274>
  2aed3a:	cmp    0x30(%rbp),%r15
  2aed3e:	jne    2aebfb <take_gil+0x20b>
  2aed44:	mov    0x7f0(%rbx),%eax
  2aed4a:	xor    %r13d,%r13d
  2aed4d:	test   %eax,%eax
  2aed4f:	setne  %r13b
  2aed53:	jmp    2aebfb <take_gil+0x20b>
  2aed58:	mov    %r12,%rdi
  2aed5b:	call   10b450 <pthread_mutex_unlock@plt>
  2aed60:	mov    %eax,%r12d
  2aed63:	test   %eax,%eax
  2aed65:	jne    2aec28 <take_gil+0x238>
  2aed6b:	mov    0x1c(%rsp),%eax
  2aed6f:	test   %eax,%eax
  2aed71:	je     2aeb96 <take_gil+0x1a6>
  2aed77:	mov    0x60(%r15),%r13
  2aed7b:	movl   $0x0,0x174(%r15)
  2aed86:	mov    0x174(%r15),%ebx
  2aed8d:	mov    0x7d8(%r13),%eax
  2aed94:	test   %eax,%eax
  2aed96:	jne    2aee4b <take_gil+0x45b>
  2aed9c:	mov    0x294f5d(%rip),%rbp        # 543d00 <_PyRuntime@@Base-0xff640>
  2aeda3:	xor    %r14d,%r14d
  2aeda6:	mov    0x1a0(%r15),%eax
  2aedad:	mov    %eax,(%rsp)
  2aedb0:	call   108710 <PyThread_get_thread_ident@plt>
  2aedb5:	cmp    0x40(%rbp),%rax
  2aedb9:	je     2aee30 <take_gil+0x440>
  2aedbb:	mov    0x1a4(%r15),%eax
  2aedc2:	mov    (%rsp),%ecx
  2aedc5:	mov    0x18c(%r15),%edx
  2aedcc:	or     %ebx,%eax
  2aedce:	or     %r14d,%eax
  2aedd1:	or     %ecx,%eax
  2aedd3:	or     %r12d,%eax
  2aedd6:	or     %edx,%eax
  2aedd8:	mov    %eax,0x170(%r15)
  2aeddf:	jmp    2aeb96 <take_gil+0x1a6>
  2aede4:	lea    0x12437d(%rip),%rsi        # 3d3168 <Py_Version+0x78>
  2aedeb:	lea    0x124706(%rip),%rdi        # 3d34f8 <__func__.10>
  2aedf2:	call   1077f0 <_Py_FatalErrorFunc@plt>
  2aedf7:	lea    0x124422(%rip),%rsi        # 3d3220 <Py_Version+0x130>
  2aedfe:	lea    0x1246f3(%rip),%rdi        # 3d34f8 <__func__.10>
  2aee05:	call   1077f0 <_Py_FatalErrorFunc@plt>
  2aee0a:	lea    0x1243bf(%rip),%rsi        # 3d31d0 <Py_Version+0xe0>
  2aee11:	lea    0x1246e0(%rip),%rdi        # 3d34f8 <__func__.10>
  2aee18:	call   1077f0 <_Py_FatalErrorFunc@plt>
  2aee1d:	lea    0x12449c(%rip),%rsi        # 3d32c0 <Py_Version+0x1d0>
  2aee24:	lea    0x1246cd(%rip),%rdi        # 3d34f8 <__func__.10>
  2aee2b:	call   1077f0 <_Py_FatalErrorFunc@plt>
  2aee30:	cmp    0x30(%rbp),%r15
  2aee34:	jne    2aedbb <take_gil+0x3cb>
  2aee36:	mov    0x7f0(%r13),%eax
  2aee3d:	xor    %r12d,%r12d
  2aee40:	test   %eax,%eax
  2aee42:	setne  %r12b
  2aee46:	jmp    2aedbb <take_gil+0x3cb>
  2aee4b:	call   108710 <PyThread_get_thread_ident@plt>
  2aee50:	mov    0x294ea9(%rip),%rbp        # 543d00 <_PyRuntime@@Base-0xff640>
  2aee57:	cmp    0x40(%rbp),%rax
  2aee5b:	jne    2aeda3 <take_gil+0x3b3>
  2aee61:	xor    %r14d,%r14d
  2aee64:	cmp    %r15,0x30(%rbp)
  2aee68:	sete   %r14b
  2aee6c:	jmp    2aeda6 <take_gil+0x3b6>
